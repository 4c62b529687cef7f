import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { compileSubscription } from "../../../../src/ngsi-ld/subscriptions/compile-subscription";
import {
  parseSubscription,
  patchSubscription,
} from "../../../../src/ngsi-ld/subscriptions/parse-subscription";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import { CORE_URL, loadContext } from "../codec/local-contexts";

const ctx = compileContext([loadContext(CORE_URL)]);
const NOW = "2026-01-01T00:00:00Z";
const ID = "urn:ngsi-ld:Subscription:t";
const base = () => ({
  type: "Subscription",
  entities: [{ type: "Camera" }],
  notification: { endpoint: { uri: "http://127.0.0.1:9/notify" } },
});

/** Parses and compiles like POST /subscriptions; returns the error's message (or "" when valid). */
function refusal(body: unknown): string {
  try {
    const sub = parseSubscription(body, ID, NOW);
    compileSubscription(
      { tenant: "", sub, context: undefined, stats: { timesSent: 0, timesFailed: 0 } },
      ctx,
    );
    return "";
  } catch (e) {
    expect(e).to.be.instanceOf(AppError);
    expect((e as AppError).kind).to.equal("BadRequestData");
    return (e as Error).message;
  }
}

describe("subscription validation (ETSI GS CIM 009 v1.8 §5.2.12, §5.8.1)", () => {
  it("accepts a minimal subscription and fills the defaults", () => {
    const s = parseSubscription(base(), ID, NOW);
    expect(s).to.deep.include({
      id: ID,
      type: "Subscription",
      createdAt: NOW,
      modifiedAt: NOW,
    });
    expect(s.notification.endpoint.uri).to.equal("http://127.0.0.1:9/notify");
  });

  const bad: [string, (b: Record<string, unknown>) => void, RegExp][] = [
    [
      "an endpoint URI that is not a URI",
      (b) => (b.notification = { endpoint: { uri: "not a uri" } }),
      /endpoint.uri/,
    ],
    [
      "an endpoint with an unsupported scheme",
      (b) => (b.notification = { endpoint: { uri: "ftp://x/y" } }),
      /endpoint.uri/,
    ],
    [
      "an unknown format",
      (b) => (b.notification = { ...base().notification, format: "pretty" }),
      /Unknown notification.format/,
    ],
    [
      "a bad accept",
      (b) => (b.notification = { endpoint: { uri: "http://x/", accept: "text/xml" } }),
      /accept/,
    ],
    ["a bad q", (b) => (b.q = "speed>>3"), /Invalid q/],
    [
      "a bad geoQ georel",
      (b) => (b.geoQ = { georel: "nearby", geometry: "Point", coordinates: [1, 2] }),
      /georel/,
    ],
    [
      "a geoQ polygon that is not closed",
      (b) =>
        (b.geoQ = {
          georel: "within",
          geometry: "Polygon",
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        }),
      /Polygon/,
    ],
    [
      "timeInterval with watchedAttributes",
      (b) => Object.assign(b, { timeInterval: 5, watchedAttributes: ["speed"] }),
      /timeInterval and watchedAttributes/,
    ],
    [
      "timeInterval with throttling",
      (b) => Object.assign(b, { timeInterval: 5, throttling: 2 }),
      /throttling/,
    ],
    ["expiresAt in the past", (b) => (b.expiresAt = "2020-01-01T00:00:00Z"), /expiresAt is in the past/],
    ["expiresAt not a DateTime", (b) => (b.expiresAt = "tomorrow"), /DateTime/],
    ["a negative throttling", (b) => (b.throttling = -1), /throttling/],
    ["an unknown trigger", (b) => (b.notificationTrigger = ["entityTouched"]), /notificationTrigger/],
    ["no entities and no watchedAttributes", (b) => delete b.entities, /entities or watchedAttributes/],
    ["an EntitySelector without type", (b) => (b.entities = [{ id: "urn:x:1" }]), /needs a type/],
    ["an EntitySelector id that is not a URI", (b) => (b.entities = [{ type: "T", id: "x" }]), /not a URI/],
    [
      "an idPattern that does not compile",
      (b) => (b.entities = [{ type: "T", idPattern: "(" }]),
      /idPattern/,
    ],
    ["a wrong type", (b) => (b.type = "Subscriptions"), /"type": "Subscription"/],
    ["an unknown member", (b) => (b.colour = "red"), /Unknown subscription member colour/],
    ["a missing notification", (b) => delete b.notification, /notification/],
    [
      "attributes with pick",
      (b) => (b.notification = { ...base().notification, attributes: ["a"], pick: ["b"] }),
      /pick/,
    ],
    ["a bad scopeQ", (b) => (b.scopeQ = "/a/("), /scopeQ/],
    [
      "receiverInfo not key-value pairs",
      (b) => (b.notification = { endpoint: { uri: "http://x/", receiverInfo: [{ k: 1 }] } }),
      /receiverInfo/,
    ],
  ];
  for (const [what, change, message] of bad) {
    it(`refuses ${what} with a precise 400`, () => {
      const body: Record<string, unknown> = base();
      change(body);
      expect(refusal(body)).to.match(message);
    });
  }

  it("a PATCH replaces members (notification whole) and re-checks the whole", () => {
    const s = parseSubscription({ ...base(), q: "speed>3" }, ID, NOW);
    const later = "2026-01-02T00:00:00Z";
    const endpoint = { uri: "http://127.0.0.1:9/other" };
    const p = patchSubscription(s, { q: "speed>5", notification: { format: "keyValues", endpoint } }, later);
    expect(p.q).to.equal("speed>5");
    expect(p.notification).to.deep.equal({ format: "keyValues", endpoint });
    expect(() => patchSubscription(s, { notification: { format: "keyValues" } }, later)).to.throw(/endpoint/);
    expect(p.createdAt).to.equal(NOW);
    expect(p.modifiedAt).to.equal(later);
    expect(() => patchSubscription(s, { timeInterval: 3, watchedAttributes: ["a"] }, later)).to.throw(
      /timeInterval/,
    );
    expect(() => patchSubscription(s, {}, later)).to.throw(/changes no subscription member/);
    expect(() => patchSubscription(s, { type: "Building", q: "speed>1" }, later)).to.throw(/type/);
  });
});
