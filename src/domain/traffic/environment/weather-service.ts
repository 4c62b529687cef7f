import { notFound } from "../../../errors";
import { CITY_CENTRE, nearest } from "../geo-distance";
import type { HistoryReader } from "../projection/history-reader";
import type { GeoPoint, Weather, WeatherForecastItem } from "../models";
import { conditionsOf } from "../projection/models-from-entities";
import type { TrafficProjection } from "../projection/traffic-projection";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How fast today's departure from the usual temperature fades (e-folding time). */
const ANOMALY_DECAY_MS = 6 * HOUR;

/**
 * Weather (docs/rest.md "Weather and air quality"): the current observation nearest to a location (default
 * the city centre), and an hourly forecast from the station's history: the temperature's diurnal
 * profile of the last week plus today's anomaly fading over hours, the share of past days with rain
 * at that hour as the precipitation probability, the usual cloudiness at that hour for the conditions.
 */
export class WeatherService {
  constructor(
    private readonly projection: TrafficProjection,
    private readonly history: HistoryReader,
    private readonly now: () => number = Date.now,
  ) {}

  /** The observation nearest to `at`; 404 when no station reports. */
  current(at: GeoPoint = CITY_CENTRE): Weather {
    const w = nearest(this.projection.weather.values(), at);
    if (!w) throw notFound("No weather observation is available yet", {});
    return w;
  }

  /** Hourly forecast for `hours` hours (the first on the next whole hour). */
  forecast(hours: number, at: GeoPoint = CITY_CENTRE): WeatherForecastItem[] {
    const w = this.current(at);
    const now = this.now();
    const from = now - 7 * DAY;
    const temp = this.byHour(w.entityId, "temperature", from, now);
    const rain = this.byHour(w.entityId, "precipitation", from, now, (v) => (v > 0 ? 1 : 0));
    const cloud = this.byHour(w.entityId, "cloudiness", from, now);
    const hourOf = (t: number) => Math.floor(((t + 7 * HOUR) % DAY) / HOUR);
    const usualNow = temp.get(hourOf(now));
    const anomaly = usualNow !== undefined ? w.temperature - usualNow : 0;
    const first = Math.ceil((now + 1) / HOUR) * HOUR;
    const out: WeatherForecastItem[] = [];
    for (let k = 0; k < hours; k++) {
      const t = first + k * HOUR;
      const h = hourOf(t);
      const fade = Math.exp(-(t - now) / ANOMALY_DECAY_MS);
      const temperature = (temp.get(h) ?? w.temperature) + anomaly * fade;
      const pRain = Math.min(1, (rain.get(h) ?? 0) * (1 - fade) + (w.precipitation > 0 ? 1 : 0) * fade);
      const clouds = (cloud.get(h) ?? w.cloudiness) * (1 - fade) + w.cloudiness * fade;
      out.push({
        timestamp: t,
        temperature: Math.round(temperature * 10) / 10,
        precipitationProbability: Math.round(pRain * 100) / 100,
        conditions: conditionsOf(undefined, clouds, pRain >= 0.5 ? 0.5 : 0),
      });
    }
    return out;
  }

  /** Mean of `term` (mapped by `f`) per local hour of day over [from, to). */
  private byHour(
    id: string,
    term: string,
    from: number,
    to: number,
    f = (v: number) => v,
  ): Map<number, number> {
    const sum = new Map<number, [number, number]>();
    this.history.forEach(id, term, from, to, (t, v) => {
      const h = Math.floor(((t + 7 * HOUR) % DAY) / HOUR);
      const s = sum.get(h) ?? [0, 0];
      s[0] += f(v);
      s[1]++;
      sum.set(h, s);
    });
    return new Map([...sum].map(([h, [s, n]]) => [h, s / n]));
  }
}
