import { DEFAULT_TENANT } from "../../store/graph-store";
import type { EntityService } from "../../ngsi-ld/entities/entity-service";
import type { Entity } from "../../ngsi-ld/model/entity";
import type { TemporalIndex } from "../../ngsi-ld/temporal/temporal-index";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { CommitEvent } from "../../store/graph-store";
import { AnalyticsService } from "../analytics/analytics-service";
import { AccidentService, type AccidentStatusWriter } from "./accidents/accident-service";
import { AlertLog } from "./accidents/alert-log";
import { AirQualityService } from "./environment/air-quality-service";
import { CameraService } from "./cameras/camera-service";
import { FlowRollup } from "./flow/flow-rollup";
import { HistoryReader } from "./projection/history-reader";
import { HistoryVersions } from "./projection/history-versions";
import { ProjectionFeed, type EntitySource } from "./projection/projection-source";
import { TrafficProjection } from "./projection/traffic-projection";
import { WeatherService } from "./environment/weather-service";
import type { GeoPoint } from "./models";
import { nearbyIds, type NearbyIndex } from "./nearby";
import { ZoneService } from "./zones/zone-service";

/** What the traffic domain is built from (the composition root passes the NGSI-LD model's parts). */
export interface TrafficDomainDeps {
  /** The compiled traffic context (contexts/traffic.jsonld + core). */
  traffic: CompiledContext;
  /** Reads entities of the graph at start. */
  source: EntitySource;
  /** The temporal history's index. */
  temporal: TemporalIndex;
  /** The entity service, through which the domain writes (an accident's status). */
  entities: Pick<EntityService, "merge">;
  /** The geo index the domain's {@link TrafficDomain.near} asks. */
  places: NearbyIndex;
  /** Clock (tests pin it). */
  now?: () => number;
}

/** The traffic domain every non-NGSI face shares: one service object per area. */
export interface TrafficDomain {
  cameras: CameraService;
  accidents: AccidentService;
  zones: ZoneService;
  weather: WeatherService;
  airQuality: AirQualityService;
  analytics: AnalyticsService;
  /** The state the services read; `version` changes with every change. */
  projection: TrafficProjection;
  rollup: FlowRollup;
  history: HistoryReader;
  /** Versions of the entities' histories: the composition root feeds it the temporal service's changes. */
  historyVersions: HistoryVersions;
  /** First alert per accident: feed it the delivered notifications (`recordDelivery`). */
  alerts: AlertLog;
  /** The ids of the city's entities within `metres` of `centre`. */
  near(centre: GeoPoint, metres: number): Promise<Set<string>>;
  /** The change-feed listener: register it as a derived stage of the commit pipeline before {@link load}. */
  apply(event: CommitEvent): void;
  /** Reads the current state and the history from the graph (start-up). */
  load(): Promise<void>;
}

/** Builds the traffic domain (docs/design.md "domain/"); the composition root calls this once. */
export function createTrafficDomain(deps: TrafficDomainDeps): TrafficDomain {
  const now = deps.now ?? Date.now;
  const projection = new TrafficProjection(deps.traffic);
  const feed = new ProjectionFeed(projection);
  const history = new HistoryReader(deps.temporal, deps.traffic);
  const rollup = new FlowRollup(projection);
  const writeStatus: AccidentStatusWriter = async (entityId, status, at) => {
    const patch: Entity = {
      id: entityId,
      type: "TrafficAccident",
      status: { type: "Property", value: status },
    };
    if (status === "resolved") {
      patch.resolvedAt = {
        type: "Property",
        value: { "@type": "DateTime", "@value": new Date(at).toISOString() },
      };
    }
    await deps.entities.merge(DEFAULT_TENANT, entityId, patch, deps.traffic);
  };
  const historyVersions = new HistoryVersions();
  const cameras = new CameraService(projection, history, now, historyVersions);
  const alerts = new AlertLog();
  const accidents = new AccidentService(projection, history, writeStatus, alerts, now);
  return {
    cameras,
    accidents,
    zones: new ZoneService(projection, rollup, accidents, now),
    weather: new WeatherService(projection, history, now),
    airQuality: new AirQualityService(projection, history),
    analytics: new AnalyticsService(projection, rollup, history),
    projection,
    rollup,
    history,
    historyVersions,
    alerts,
    near: (centre, metres) => nearbyIds(deps.places, centre, metres),
    apply: (e) => feed.apply(e),
    load: async () => {
      await feed.load(deps.source);
      rollup.fillFrom(history, now());
    },
  };
}
