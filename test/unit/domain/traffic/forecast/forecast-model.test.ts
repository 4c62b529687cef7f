import { expect } from "chai";
import { fitForecast, seasonalProfile } from "../../../../../src/domain/traffic/forecast/forecast-model";

const STEP = 15 * 60_000;
const WEEK = 7 * 96;

/** A weekly-seasonal series with a noise term from a fixed LCG. */
function series(weeks: number, noise: number, seed = 1) {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 2;
  const start = Date.UTC(2025, 0, 6); // a Monday
  const values: number[] = [];
  for (let i = 0; i < weeks * WEEK; i++) {
    const h = ((i % 96) / 96) * 24;
    values.push(30 - 10 * Math.exp(-((h - 1) ** 2) / 2) + noise * rnd()); // a dip at 08:00 local (01:00 UTC)
  }
  return { start, values };
}

describe("domain/traffic/forecast-model: seasonal profile + damped smoothing", () => {
  it("learns the seasonal profile", () => {
    const { start, values } = series(3, 0);
    const p = seasonalProfile(values, start, STEP);
    for (let i = 0; i < 96; i += 7)
      expect(p(start + 3 * WEEK * STEP + i * STEP)).to.be.closeTo(values[i], 1e-9);
  });

  it("predicts the profile far ahead and corrects the near term after a shock", () => {
    const { start, values } = series(3, 0.5);
    const shocked = values.slice();
    for (let i = shocked.length - 8; i < shocked.length; i++) shocked[i] -= 8; // a jam in the last two hours
    const m = fitForecast(shocked, start, STEP);
    const truth = (h: number) => values[(shocked.length - 1 + h) % WEEK];
    const near = m.predict(1);
    expect(near.value).to.be.below(truth(1) - 2); // the smoothing carries part of the jam into the next step
    expect(Math.abs(m.predict(96).value - truth(96))).to.be.below(1.5);
    expect(m.predict(96).sd).to.be.at.least(near.sd); // the interval widens with the horizon
    expect(m.fit.weeks).to.be.closeTo(3, 1e-9);
  });

  it("handles missing values and a series of one point", () => {
    const { start, values } = series(1, 0.2);
    values[5] = NaN;
    values[values.length - 1] = NaN;
    const m = fitForecast(values, start, STEP);
    expect(Number.isFinite(m.predict(4).value)).to.equal(true);
    const one = fitForecast([25], start, STEP);
    expect(one.predict(10).value).to.equal(25);
  });
});
