import { expect } from "chai";
import { http, linkTo, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";

const REGS = "/ngsi-ld/v1/csourceRegistrations";
const CSUBS = "/ngsi-ld/v1/csourceSubscriptions";
const LD = { "Content-Type": "application/ld+json" };
const LINK = { Link: linkTo(TEST_CONTEXT) };

const registration = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "ContextSourceRegistration",
  information: [
    {
      entities: [{ id: "urn:ngsi-ld:Vehicle:A456", type: "Vehicle" }],
      propertyNames: ["brandName", "speed"],
      relationshipNames: ["isParked"],
    },
    {
      entities: [{ idPattern: ".*downtown$", type: "OffStreetParking" }],
      propertyNames: ["availableSpotNumber"],
    },
  ],
  endpoint: "http://127.0.0.1:9/source",
  "@context": [TEST_CONTEXT],
  ...extra,
});

describe("context source registrations (ETSI GS CIM 009 v1.8 §5.9, §5.10, §5.11)", function () {
  this.timeout(30_000);
  let app: TestApp;
  let rx: Receiver;

  before(async () => {
    rx = await new Receiver().start();
    app = await startTestApp({ NOTIFY_BACKOFF: "20ms", SUBSCRIPTION_STATUS_FLUSH: "50ms" });
  });
  after(async () => {
    await app.destroy();
    await rx.stop();
  });

  it("creates, retrieves with defaults, updates and deletes a registration", async () => {
    const id = "urn:ngsi-ld:ContextSourceRegistration:crud";
    const made = await http(app.url, "POST", REGS, registration(id, { csourceProperty1: "aValue" }), LD);
    expect(made.status).to.equal(201);
    expect(made.headers.get("location")).to.equal(`${REGS}/${id}`);
    expect((await http(app.url, "POST", REGS, registration(id), LD)).status).to.equal(409);

    const got = await http(app.url, "GET", `${REGS}/${id}`, undefined, LINK);
    expect(got.status).to.equal(200);
    const body = got.body as Record<string, unknown>;
    expect(body.mode).to.equal("inclusive");
    expect(body.operations).to.deep.equal(["federationOps"]);
    expect(body.csourceProperty1).to.equal("aValue");
    expect((body.information as { propertyNames?: string[] }[])[0].propertyNames).to.deep.equal([
      "brandName",
      "speed",
    ]);

    const patched = await http(app.url, "PATCH", `${REGS}/${id}`, { endpoint: "http://127.0.0.1:9/other" });
    expect(patched.status).to.equal(204);
    expect(((await http(app.url, "GET", `${REGS}/${id}`)).body as { endpoint: string }).endpoint).to.equal(
      "http://127.0.0.1:9/other",
    );
    const removeMandatory = await http(app.url, "PATCH", `${REGS}/${id}`, { information: null });
    expect(removeMandatory.status).to.equal(400);

    expect((await http(app.url, "DELETE", `${REGS}/${id}`)).status).to.equal(204);
    expect((await http(app.url, "GET", `${REGS}/${id}`)).status).to.equal(404);
    expect((await http(app.url, "DELETE", `${REGS}/${id}`)).status).to.equal(404);
  });

  it("refuses malformed registrations with 400 and stores nothing", async () => {
    const id = "urn:ngsi-ld:ContextSourceRegistration:bad";
    for (const bad of [
      { ...registration(id), information: null },
      { ...registration(id), information: [] },
      { ...registration(id), endpoint: "not a uri" },
      { ...registration(id), mode: "sometimes" },
      { ...registration(id), operations: ["fly"] },
      { ...registration(id), expiresAt: "2001-01-01T00:00:00Z" },
      { ...registration(id), type: "Building" },
    ]) {
      const r = await http(app.url, "POST", REGS, bad, LD);
      expect(r.status, JSON.stringify(bad)).to.equal(400);
      expect((r.body as { type: string }).type).to.match(/BadRequestData$/);
    }
    expect((await http(app.url, "GET", `${REGS}/${id}`)).status).to.equal(404);
  });

  it("queries registrations by type, id, idPattern, attrs, q on context source properties and geo", async () => {
    const a = "urn:ngsi-ld:ContextSourceRegistration:qa";
    const b = "urn:ngsi-ld:ContextSourceRegistration:qb";
    await http(app.url, "POST", REGS, registration(a, { csourceProperty1: "aValue" }), LD);
    await http(
      app.url,
      "POST",
      REGS,
      {
        id: b,
        type: "ContextSourceRegistration",
        information: [{ entities: [{ type: "Building" }], propertyNames: ["name"] }],
        location: { type: "Point", coordinates: [106.7, 10.78] },
        endpoint: "http://127.0.0.1:9/b",
        "@context": [TEST_CONTEXT],
      },
      LD,
    );
    const ids = async (qs: string) => {
      const r = await http(app.url, "GET", `${REGS}?${qs}`, undefined, LINK);
      expect(r.status, qs).to.equal(200);
      return (r.body as { id: string }[]).map((x) => x.id).filter((x) => x === a || x === b);
    };
    expect(await ids("type=Vehicle")).to.deep.equal([a]);
    expect(await ids("type=Building")).to.deep.equal([b]);
    expect(await ids("type=OffStreetParking&idPattern=.*downtown$")).to.deep.equal([a]);
    expect(await ids("type=Vehicle&id=urn:ngsi-ld:Vehicle:B1")).to.deep.equal([]);
    expect(await ids("attrs=name")).to.deep.equal([b]);
    expect(await ids("attrs=speed,name")).to.deep.equal([a, b]);
    expect(await ids('q=csourceProperty1=="aValue"')).to.deep.equal([a]);
    expect(
      await ids("type=Building&georel=near;maxDistance==2000&geometry=Point&coordinates=[106.7,10.781]"),
    ).to.deep.equal([b]);
    expect(
      await ids("type=Building&georel=near;maxDistance==10&geometry=Point&coordinates=[106.8,10.9]"),
    ).to.deep.equal([]);
    expect((await http(app.url, "GET", `${REGS}?id=notAUri`)).status).to.equal(400);
    expect((await http(app.url, "GET", `${REGS}?q=(broken`)).status).to.equal(400);
    expect((await http(app.url, "GET", `${REGS}?georel=within`)).status).to.equal(400);
    const counted = await http(
      app.url,
      "GET",
      `${REGS}?type=Vehicle,Building&count=true&limit=1`,
      undefined,
      LINK,
    );
    expect(counted.headers.get("ngsild-results-count")).to.equal("2");
    expect(counted.body).to.have.length(1);
    expect(counted.headers.get("link")).to.contain(
      '</ngsi-ld/v1/csourceRegistrations?type=Vehicle%2CBuilding&count=true&limit=1&offset=1>;rel="next"',
    );
    await http(app.url, "DELETE", `${REGS}/${a}`);
    await http(app.url, "DELETE", `${REGS}/${b}`);
  });

  it("keeps registrations and csource subscriptions across a restart", async () => {
    const id = "urn:ngsi-ld:ContextSourceRegistration:durable";
    const sid = "urn:ngsi-ld:Subscription:durable";
    await http(app.url, "POST", REGS, registration(id), LD);
    const sub = {
      id: sid,
      type: "Subscription",
      entities: [{ type: "Building" }],
      notification: { endpoint: { uri: rx.url } },
    };
    expect((await http(app.url, "POST", CSUBS, sub)).status).to.equal(201);
    const dir = app.dataDir;
    await app.close();
    app = await startTestApp({ NOTIFY_BACKOFF: "20ms", SUBSCRIPTION_STATUS_FLUSH: "50ms" }, dir);
    const got = await http(app.url, "GET", `${REGS}/${id}`, undefined, LINK);
    expect(got.status).to.equal(200);
    expect((got.body as { endpoint: string }).endpoint).to.equal("http://127.0.0.1:9/source");
    expect((await http(app.url, "GET", `${CSUBS}/${sid}`)).status).to.equal(200);
    expect((await http(app.url, "GET", `/ngsi-ld/v1/subscriptions/${sid}`)).status).to.equal(404);
    await http(app.url, "DELETE", `${REGS}/${id}`);
    await http(app.url, "DELETE", `${CSUBS}/${sid}`);
  });

  it("notifies csource subscriptions when matching registrations appear, change and go", async () => {
    const sid = "urn:ngsi-ld:Subscription:csub";
    const id = "urn:ngsi-ld:ContextSourceRegistration:watched";
    const sub = {
      id: sid,
      type: "Subscription",
      entities: [{ type: "Vehicle" }],
      watchedAttributes: ["speed"],
      notification: { endpoint: { uri: rx.url } },
      "@context": [TEST_CONTEXT],
    };
    expect((await http(app.url, "POST", CSUBS, sub, LD)).status).to.equal(201);
    const mine = () => rx.received.filter((r) => r.body.subscriptionId === sid);
    await http(app.url, "POST", REGS, registration(id), LD);
    expect(await rx.until(() => mine().length === 1)).to.equal(true);
    const first = mine()[0].body as unknown as { triggerReason: string; data: Record<string, unknown>[] };
    expect(first.triggerReason).to.equal("newlyMatching");
    expect(first.data[0].id).to.equal(id);
    // only the RegistrationInfo that matches (Vehicle with speed) is shown
    expect(first.data[0].information).to.have.length(1);

    await http(app.url, "PATCH", `${REGS}/${id}`, { endpoint: "http://127.0.0.1:9/moved" });
    expect(await rx.until(() => mine().length === 2)).to.equal(true);
    expect((mine()[1].body as unknown as { triggerReason: string }).triggerReason).to.equal("updated");

    await http(app.url, "DELETE", `${REGS}/${id}`);
    expect(await rx.until(() => mine().length === 3)).to.equal(true);
    expect((mine()[2].body as unknown as { triggerReason: string }).triggerReason).to.equal(
      "noLongerMatching",
    );

    // a registration of other types is not notified
    await http(
      app.url,
      "POST",
      REGS,
      { ...registration(`${id}:2`), information: [{ entities: [{ type: "Building" }] }] },
      LD,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(mine()).to.have.length(3);
    expect(
      await rx.until(() => {
        const s = rx.received.length;
        return s > 0;
      }),
    ).to.equal(true);
    const status = await http(app.url, "GET", `${CSUBS}/${sid}`);
    expect(
      ((status.body as { notification: { timesSent?: number } }).notification.timesSent ?? 0) >= 1,
    ).to.equal(true);
    await http(app.url, "DELETE", `${REGS}/${id}:2`);
    await http(app.url, "DELETE", `${CSUBS}/${sid}`);
  });

  it("notifies a csource subscription patched to match a registration that already exists", async () => {
    const sid = "urn:ngsi-ld:Subscription:csub-patched";
    const id = "urn:ngsi-ld:ContextSourceRegistration:before-the-patch";
    await http(app.url, "POST", REGS, registration(id), LD);
    const sub = {
      id: sid,
      type: "Subscription",
      entities: [{ type: "Building" }],
      notification: { endpoint: { uri: rx.url } },
      "@context": [TEST_CONTEXT],
    };
    expect((await http(app.url, "POST", CSUBS, sub, LD)).status).to.equal(201);
    const mine = () => rx.received.filter((r) => r.body.subscriptionId === sid);
    await new Promise((r) => setTimeout(r, 200));
    expect(mine()).to.have.length(0);
    const patch = { entities: [{ type: "Vehicle" }], "@context": [TEST_CONTEXT] };
    expect((await http(app.url, "PATCH", `${CSUBS}/${sid}`, patch, LD)).status).to.equal(204);
    expect(await rx.until(() => mine().length === 1)).to.equal(true);
    const note = mine()[0].body as unknown as { triggerReason: string; data: { id: string }[] };
    expect(note.triggerReason).to.equal("newlyMatching");
    expect(note.data.map((r) => r.id)).to.deep.equal([id]);
    // a patch that keeps what matches tells nothing new
    const again = { notification: { endpoint: { uri: rx.url } }, "@context": [TEST_CONTEXT] };
    expect((await http(app.url, "PATCH", `${CSUBS}/${sid}`, again, LD)).status).to.equal(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(mine()).to.have.length(1);
    await http(app.url, "DELETE", `${CSUBS}/${sid}`);
    await http(app.url, "DELETE", `${REGS}/${id}`);
  });

  it("evaluates a csource subscription's temporalQ on the registrations' intervals (§5.11.7)", async () => {
    const sid = "urn:ngsi-ld:Subscription:csub-temporal";
    const base = "urn:ngsi-ld:ContextSourceRegistration:interval";
    const sub = {
      id: sid,
      type: "Subscription",
      entities: [{ type: "Vehicle" }],
      temporalQ: { timerel: "after", timeAt: "2020-06-01T22:07:00Z" },
      notification: { endpoint: { uri: rx.url } },
      "@context": [TEST_CONTEXT],
    };
    const bad = {
      ...sub,
      id: `${sid}:bad`,
      temporalQ: { timerel: "during", timeAt: "2020-06-01T22:07:00Z" },
    };
    expect((await http(app.url, "POST", CSUBS, bad, LD)).status).to.equal(400);
    expect((await http(app.url, "POST", CSUBS, sub, LD)).status).to.equal(201);
    const shown = (await http(app.url, "GET", `${CSUBS}/${sid}`)).body as { temporalQ?: unknown };
    expect(shown.temporalQ).to.deep.equal(sub.temporalQ);

    const mine = () => rx.received.filter((r) => r.body.subscriptionId === sid);
    const during = (id: string, startAt: string, endAt: string) =>
      registration(id, { observationInterval: { startAt, endAt } });
    // ended before timeAt: not matched; ends after it: matched; no observationInterval: not matched
    await http(
      app.url,
      "POST",
      REGS,
      during(`${base}:old`, "2019-01-01T00:00:00Z", "2019-12-31T00:00:00Z"),
      LD,
    );
    await http(
      app.url,
      "POST",
      REGS,
      during(`${base}:new`, "2020-08-01T22:07:00Z", "2021-08-01T21:07:00Z"),
      LD,
    );
    await http(app.url, "POST", REGS, registration(`${base}:none`), LD);
    expect(await rx.until(() => mine().length >= 1)).to.equal(true);
    await new Promise((r) => setTimeout(r, 300));
    const ids = mine().map((r) => (r.body as unknown as { data: { id: string }[] }).data[0].id);
    expect(ids).to.deep.equal([`${base}:new`]);

    for (const k of ["old", "new", "none"]) await http(app.url, "DELETE", `${REGS}/${base}:${k}`);
    await http(app.url, "DELETE", `${CSUBS}/${sid}`);
  });

  it("shows the failed delivery of a csource notification in the subscription's status members (§5.2.14)", async () => {
    const sid = "urn:ngsi-ld:Subscription:csub-unreachable";
    const id = "urn:ngsi-ld:ContextSourceRegistration:for-unreachable";
    const sub = {
      id: sid,
      type: "Subscription",
      entities: [{ type: "Vehicle" }],
      notification: { endpoint: { uri: "http://127.0.0.1:9/notify" } },
      "@context": [TEST_CONTEXT],
    };
    expect((await http(app.url, "POST", CSUBS, sub, LD)).status).to.equal(201);
    await http(app.url, "POST", REGS, registration(id), LD);
    type Shown = { notification: Record<string, unknown>; status: string };
    const view = async () => (await http(app.url, "GET", `${CSUBS}/${sid}`)).body as Shown;
    let n: Record<string, unknown> = {};
    for (let i = 0; i < 100 && n.status !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      n = (await view()).notification;
    }
    expect(n.status).to.equal("failed");
    expect(n.timesFailed as number).to.be.at.least(1);
    expect(n.lastFailure).to.equal(n.lastNotification);
    // the subscription itself stays active (§5.2.12 status)
    expect((await view()).status).to.equal("active");
    await http(app.url, "DELETE", `${REGS}/${id}`);
    await http(app.url, "DELETE", `${CSUBS}/${sid}`);
  });
});
