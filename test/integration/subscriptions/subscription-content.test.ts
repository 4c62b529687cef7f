import { expect } from "chai";
import { CORE_CONTEXT_URL } from "../../../src/rdf/contexts/core";
import { http, linkTo, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";
import { Receiver, type Received } from "../helpers/receiver";

const SUBS = "/ngsi-ld/v1/subscriptions";
const ENTITIES = "/ngsi-ld/v1/entities";
const LD = { "Content-Type": "application/ld+json" };
const NULL = "urn:ngsi-ld:null";

/**
 * What a notification holds (ETSI GS CIM 009 v1.8 §5.2.12, §5.2.14, §5.8.6): linked entities (`join`),
 * deleted datasetId instances, an entity deletion seen by `attributeDeleted`, `jsonldContext`, the
 * `simplified` format, a percent-encoded `q`, and the default `notificationTrigger` shown on retrieval.
 */
describe("notification content (ETSI GS CIM 009 v1.8 §5.2.14, §5.8.6)", function () {
  this.timeout(30_000);
  let app: TestApp;
  let rx: Receiver;
  let n = 0;
  const forSub = (id: string) => rx.received.filter((r) => r.body.subscriptionId === id);

  /** Creates a subscription on Building (suite @context); returns its id. */
  async function subscribe(extra: Record<string, unknown>, notification: Record<string, unknown> = {}) {
    const id = `urn:ngsi-ld:Subscription:content-${++n}`;
    const r = await http(
      app.url,
      "POST",
      SUBS,
      {
        id,
        type: "Subscription",
        entities: [{ type: "Building" }],
        notification: { endpoint: { uri: rx.url }, ...notification },
        "@context": TEST_CONTEXT,
        ...extra,
      },
      LD,
    );
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return id;
  }
  /** DELETE of entity `e`'s `name` (one instance or all, by `query`), its term resolved by the test @context. */
  const deleteName = (e: string, query: string) =>
    http(app.url, "DELETE", `${ENTITIES}/${e}/attrs/name?${query}`, undefined, {
      Link: linkTo(TEST_CONTEXT),
    });
  const write = (method: string, path: string, body?: unknown) =>
    http(
      app.url,
      method,
      path,
      body === undefined ? undefined : { ...(body as object), "@context": TEST_CONTEXT },
      LD,
    );
  async function one(id: string): Promise<Received["body"]> {
    expect(await rx.until(() => forSub(id).length >= 1), `a notification for ${id}`).to.equal(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(forSub(id)).to.have.length(1);
    return forSub(id)[0].body;
  }

  before(async () => {
    rx = await new Receiver().start();
    app = await startTestApp({ NOTIFY_BACKOFF: "20ms", NOTIFY_BACKOFF_MAX: "100ms" });
  });
  after(async () => {
    await app.destroy();
    await rx.stop();
  });

  it("adds the linked entities: join=flat after the entity, join=inline inside its Relationship", async () => {
    const flat = await subscribe({}, { join: "flat", joinLevel: 1 });
    const inline = await subscribe({}, { join: "inline", format: "simplified" });
    await write("POST", ENTITIES, {
      id: "urn:ngsi-ld:City:j",
      type: "City",
      name: { type: "Property", value: "HCMC" },
    });
    await write("POST", ENTITIES, {
      id: "urn:ngsi-ld:Building:j",
      type: "Building",
      locatedAt: { type: "Relationship", object: "urn:ngsi-ld:City:j" },
    });
    const f = await one(flat);
    expect(f.data.map((e) => e.id)).to.deep.equal(["urn:ngsi-ld:Building:j", "urn:ngsi-ld:City:j"]);
    expect(f.data[1].name).to.deep.equal({ type: "Property", value: "HCMC" });
    const i = await one(inline);
    expect(i.data).to.have.length(1);
    expect(i.data[0].locatedAt).to.deep.equal({ id: "urn:ngsi-ld:City:j", type: "City", name: "HCMC" });
  });

  it("shows a deleted datasetId instance beside the others, and a deleted attribute as one null", async () => {
    const id = await subscribe({ watchedAttributes: ["name"], notificationTrigger: ["attributeDeleted"] });
    const e = "urn:ngsi-ld:Building:ds";
    await write("POST", ENTITIES, {
      id: e,
      type: "Building",
      name: [
        { type: "Property", value: "Eiffel Tower" },
        { type: "Property", value: "Tour Eiffel", datasetId: "urn:ngsi-ld:Dataset:fr" },
        { type: "Property", value: "Eiffelturm", datasetId: "urn:ngsi-ld:Dataset:de" },
      ],
    });
    expect((await deleteName(e, "datasetId=urn:ngsi-ld:Dataset:fr")).status).to.equal(204);
    const first = await one(id);
    expect(first.data[0].name).to.have.deep.members([
      { type: "Property", value: "Eiffel Tower" },
      { type: "Property", value: "Eiffelturm", datasetId: "urn:ngsi-ld:Dataset:de" },
      { type: "Property", value: NULL, datasetId: "urn:ngsi-ld:Dataset:fr" },
    ]);
    await deleteName(e, "deleteAll=true");
    expect(await rx.until(() => forSub(id).length === 2)).to.equal(true);
    expect(forSub(id)[1].body.data[0].name).to.deep.equal({ type: "Property", value: NULL });
  });

  it("notifies a multi-attribute in keyValues as a dataset map, a deleted instance as null (§4.5.3)", async () => {
    const id = await subscribe(
      { watchedAttributes: ["name"], notificationTrigger: ["attributeDeleted"] },
      { format: "keyValues" },
    );
    const e = "urn:ngsi-ld:Building:ds-kv";
    await write("POST", ENTITIES, {
      id: e,
      type: "Building",
      name: [
        { type: "Property", value: "Eiffel Tower" },
        { type: "Property", value: "Tour Eiffel", datasetId: "urn:ngsi-ld:Dataset:fr" },
      ],
    });
    expect((await deleteName(e, "datasetId=urn:ngsi-ld:Dataset:fr")).status).to.equal(204);
    expect((await one(id)).data[0].name).to.deep.equal({
      dataset: { "@none": "Eiffel Tower", "urn:ngsi-ld:Dataset:fr": NULL },
    });
  });

  it("notifies attributeDeleted when the entity is deleted: its watched attributes as null, with deletedAt", async () => {
    const id = await subscribe({ watchedAttributes: ["name"], notificationTrigger: ["attributeDeleted"] });
    const e = "urn:ngsi-ld:Building:gone";
    await write("POST", ENTITIES, {
      id: e,
      type: "Building",
      name: { type: "Property", value: "x" },
      almostFull: { type: "Property", value: false },
    });
    expect((await http(app.url, "DELETE", `${ENTITIES}/${e}`)).status).to.equal(204);
    const d = (await one(id)).data[0];
    expect(Object.keys(d).sort()).to.deep.equal(["deletedAt", "id", "name", "type"]);
    expect(d.name).to.deep.equal({ type: "Property", value: NULL });
  });

  it("compacts the notified entity with jsonldContext, not with the subscription's @context", async () => {
    const id = await subscribe(
      { jsonldContext: CORE_CONTEXT_URL },
      { endpoint: { uri: rx.url, accept: "application/ld+json" } },
    );
    await write("POST", ENTITIES, {
      id: "urn:ngsi-ld:Building:jc",
      type: "Building",
      name: { type: "Property", value: "n" },
    });
    const b = await one(id);
    expect(b["@context"]).to.equal(CORE_CONTEXT_URL);
    expect(b.data[0].type).to.equal("https://ngsi-ld-test-suite/context#Building");
    expect(b.data[0]["https://ngsi-ld-test-suite/context#name"]).to.deep.equal({
      type: "Property",
      value: "n",
    });
  });

  it("reads a percent-encoded q as GET /entities would, and shows the default notificationTrigger", async () => {
    const id = await subscribe({ q: 'name=="Eiffel%20Tower"', watchedAttributes: ["almostFull"] });
    const got = (await http(app.url, "GET", `${SUBS}/${id}`, undefined, { Link: linkTo(TEST_CONTEXT) }))
      .body as {
      notificationTrigger: string[];
    };
    expect(got.notificationTrigger).to.deep.equal(["attributeCreated", "attributeUpdated"]);
    for (const [k, name] of ["Eiffel Tower", "Eiffel%20Tower"].entries()) {
      await write("POST", ENTITIES, {
        id: `urn:ngsi-ld:Building:q${k}`,
        type: "Building",
        name: { type: "Property", value: name },
        almostFull: { type: "Property", value: true },
      });
    }
    expect((await one(id)).data[0].id).to.equal("urn:ngsi-ld:Building:q0");
  });
});
