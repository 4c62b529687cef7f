import { expect } from "chai";
import { LiveProducer } from "../../../../src/domain/live/live-producer";
import type { AccidentState, LiveModel } from "../../../../src/domain/live/live-model";
import { LocalLiveBus } from "../../../../src/events/live-bus";
import type { LiveEvent, ZoneTrafficEventData } from "../../../../src/events/live-event";
import type { Entity } from "../../../../src/ngsi-ld/model/entity";
import type { CompiledContext } from "../../../../src/rdf/contexts/compiled-context";
import type { ChangeEvent } from "../../../../src/events/change-event";

/** A model over plain test entities: {id, type, severity, status, zone, speed, t}. */
function model(zoneStates: Map<string, ZoneTrafficEventData>, asked: string[]): LiveModel {
  const v = (e: Entity, k: string) => e[k] as never;
  return {
    accident: (e) =>
      e.type === "TrafficAccident"
        ? ({
            id: e.id,
            entityId: e.id,
            timestamp: "",
            location: { lat: 0, lon: 0 },
            severity: v(e, "severity"),
            status: v(e, "status"),
            vehiclesInvolved: 1,
            injuries: 0,
            fatalities: 0,
            images: [],
            zoneId: v(e, "zone"),
          } as AccidentState)
        : undefined,
    weather: (e) =>
      e.type === "WeatherObserved"
        ? { at: v(e, "t"), data: { stationId: e.id, location: { lat: 0, lon: 0 } } }
        : undefined,
    flowZone: (e) => (e.type === "TrafficFlowObserved" ? v(e, "zone") : undefined),
    zoneState: (z) => {
      asked.push(z);
      const d = zoneStates.get(z);
      return d ? { at: 0, data: d } : undefined;
    },
    zoneIds: () => [...zoneStates.keys()],
    latestWeather: () => [],
  };
}

const commit = (after: Entity[], before: Entity[] = []): ChangeEvent => ({
  seq: 1,
  tenant: "",
  writes: [],
  change: {
    operation: "upsert",
    after: new Map(after.map((e) => [e.id, e])),
    before: new Map(before.map((e) => [e.id, e])),
    ctx: {} as CompiledContext,
  },
});
const zone = (zoneId: string, vehicleCount: number): ZoneTrafficEventData => ({
  zoneId,
  congestionLevel: "free",
  congestionIndex: 0,
  avgSpeed: 30,
  vehicleCount,
  incidentCount: 0,
  reporting: 1,
});

describe("LiveProducer", () => {
  let events: LiveEvent[];
  let bus: LocalLiveBus;
  beforeEach(() => {
    events = [];
    bus = new LocalLiveBus();
    for (const channel of ["traffic", "accidents", "weather"] as const)
      bus.subscribe({ tenant: "", channel }, (e) => events.push(e));
  });

  it("publishes an accident's creation, its severity change and its status change, nothing for other edits", () => {
    const p = new LiveProducer(model(new Map(), []), bus);
    const a1 = { id: "a", type: "TrafficAccident", severity: "minor", status: "active" };
    p.apply(commit([a1]));
    p.apply(commit([{ ...a1, severity: "severe" }], [a1]));
    p.apply(commit([{ ...a1, severity: "severe", status: "resolved" }], [{ ...a1, severity: "severe" }]));
    p.apply(
      commit(
        [{ ...a1, severity: "severe", status: "resolved" }],
        [{ ...a1, severity: "severe", status: "resolved" }],
      ),
    );
    const changes = events
      .filter((e) => e.channel === "accidents")
      .map((e) =>
        e.channel === "accidents" ? [e.data.change, e.data.previousSeverity ?? e.data.previousStatus] : [],
      );
    expect(changes).to.deep.equal([
      ["created", undefined],
      ["severity_changed", "minor"],
      ["status_changed", "active"],
    ]);
  });

  it("recomputes only the zones a commit touched, once each, and publishes a zone only when its state changed", () => {
    const states = new Map([
      ["z1", zone("z1", 5)],
      ["z2", zone("z2", 7)],
      ["z3", zone("z3", 1)],
    ]);
    const asked: string[] = [];
    const p = new LiveProducer(model(states, asked), bus);
    const flow = (id: string, z: string) => ({ id, type: "TrafficFlowObserved", zone: z });
    p.apply(commit([flow("f1", "z1"), flow("f2", "z1"), flow("f3", "z2")]));
    expect(asked).to.deep.equal(["z1", "z2"]);
    expect(events.map((e) => (e.channel === "traffic" ? e.data.zoneId : ""))).to.deep.equal(["z1", "z2"]);
    p.apply(commit([flow("f1", "z1")]));
    expect(events).to.have.length(2);
    states.set("z1", zone("z1", 6));
    p.apply(commit([flow("f1", "z1")]));
    expect(events).to.have.length(3);
  });

  it("publishes a weather observation when its time is new, and ignores other tenants", () => {
    const p = new LiveProducer(model(new Map(), []), bus);
    const w = { id: "w", type: "WeatherObserved", t: 1 };
    p.apply(commit([w]));
    p.apply(commit([w], [w]));
    p.apply(commit([{ ...w, t: 2 }], [w]));
    p.apply({ ...commit([{ ...w, t: 3 }]), tenant: "other" });
    expect(events.map((e) => e.at)).to.deep.equal([new Date(1).toISOString(), new Date(2).toISOString()]);
  });
});
