import { expect } from "chai";
import { LocalLiveBus } from "../../../src/events/live-bus";
import type { LiveEvent } from "../../../src/events/live-event";

const weather: LiveEvent = {
  channel: "weather",
  tenant: "",
  at: "2026-01-01T00:00:00.000Z",
  data: { stationId: "s", location: { lat: 10.7, lon: 106.7 }, temperature: 30 },
};

describe("LocalLiveBus", () => {
  it("delivers to each subscription, also two of one listener, and stops after unsubscribe", () => {
    const bus = new LocalLiveBus();
    const got: string[] = [];
    const l = (e: LiveEvent) => got.push(e.channel);
    const u1 = bus.subscribe({ tenant: "", channel: "weather" }, l);
    bus.subscribe({ tenant: "", channel: "weather" }, l);
    bus.publish(weather);
    expect(got).to.deep.equal(["weather", "weather"]);
    u1();
    bus.publish(weather);
    expect(got).to.have.length(3);
    expect(bus.subscriptions).to.equal(1);
  });

  it("a listener that throws does not stop the others", () => {
    const errors: unknown[] = [];
    const bus = new LocalLiveBus((e) => errors.push(e));
    let delivered = 0;
    bus.subscribe({ tenant: "", channel: "weather" }, () => {
      throw new Error("boom");
    });
    bus.subscribe({ tenant: "", channel: "weather" }, () => delivered++);
    bus.publish(weather);
    expect(delivered).to.equal(1);
    expect(errors).to.have.length(1);
  });
});
