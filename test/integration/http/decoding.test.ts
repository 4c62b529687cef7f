import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const ENTITIES = "/ngsi-ld/v1/entities";
const PD = "https://uri.etsi.org/ngsi-ld/errors/";

/**
 * Paths and bodies are decoded in one place each (the canonical path, the body reader): a malformed escape,
 * bytes that are not UTF-8, a lone surrogate or text no IRI can hold is a 400 on every method and face, and
 * nothing is stored. Reads with `lang` render what the graph holds.
 */
describe("decoding: paths and bodies that do not decode are 400", function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.destroy());

  const count = async (type: string): Promise<string | null> =>
    (await http(app.url, "GET", `${ENTITIES}?type=${type}&count=true&limit=0`)).headers.get(
      "ngsild-results-count",
    );

  it("answers lang=* over a LanguageProperty whose map is empty", async () => {
    const e = {
      id: "urn:ngsi-ld:Lang:1",
      type: "Lang",
      label: { type: "LanguageProperty", languageMap: {} },
    };
    expect((await http(app.url, "POST", ENTITIES, e)).status).to.equal(201);
    for (const q of ["lang=*", "lang=en", "lang=*&format=keyValues"]) {
      const r = await http(app.url, "GET", `${ENTITIES}?type=Lang&${q}`);
      expect(r.status, `${q}: ${r.text}`).to.equal(200);
      expect((r.body as { id: string }[]).map((x) => x.id)).to.deep.equal(["urn:ngsi-ld:Lang:1"]);
    }
    const one = await http(app.url, "GET", `${ENTITIES}/urn:ngsi-ld:Lang:1?lang=*`);
    expect(one.status, one.text).to.equal(200);
    expect(one.body).to.deep.include({ id: "urn:ngsi-ld:Lang:1", label: { type: "Property" } });
  });

  it("refuses a path with a malformed escape or one that is not UTF-8, on every method", async () => {
    const target = { id: "urn:ngsi-ld:Dec:target", type: "Dec" };
    expect((await http(app.url, "POST", ENTITIES, target)).status).to.equal(201);
    const paths = [
      `${ENTITIES}/%zz`,
      `${ENTITIES}/%ED%A0%BD%ED%B8%80`,
      `${ENTITIES}/urn:ngsi-ld:Dec:target/attrs/%E2%82`,
      `${ENTITIES}/%C0%AF`,
      `${ENTITIES}/urn:ngsi-ld:Dec:%`,
      "/ngsi-ld/v1/temporal/entities/%FF",
    ];
    for (const p of paths) {
      for (const method of ["GET", "DELETE", "PATCH", "PUT", "POST"]) {
        const body = method === "GET" || method === "DELETE" ? undefined : { type: "Property", value: 1 };
        const r = await http(app.url, method, p, body);
        expect(r.status, `${method} ${p}: ${r.text}`).to.equal(400);
        expect(r.body, `${method} ${p}`).to.include({ type: `${PD}BadRequestData`, status: 400 });
      }
    }
    expect(await count("Dec")).to.equal("1");
  });

  it("renders the 400 of a malformed path in the format of the face", async () => {
    const a = await http(app.url, "GET", "/v1/cameras/%zz");
    expect(a.status).to.equal(400);
    expect((a.body as { error: { code: string } }).error.code).to.equal("INVALID_PARAMETER");
    const b = await http(app.url, "DELETE", "/api/v1/alerts/subscriptions/%ED%B0%80");
    expect(b.status).to.equal(400);
    expect((b.body as { error: { code: string } }).error.code).to.equal("INVALID_PARAMETER");
    const s = await http(app.url, "GET", "/sparql%zz?query=ASK%7B%7D");
    expect(s.status).to.equal(400);
    const h = await http(app.url, "GET", "/%zz");
    expect(h.status).to.equal(400);
  });

  it("refuses a body that is not UTF-8, whole, and stores nothing", async () => {
    for (const bytes of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0xbd], [0xe2, 0x82]]) {
      const body = Buffer.concat([
        Buffer.from('{"id":"urn:ngsi-ld:Utf:'),
        Buffer.from(bytes),
        Buffer.from('","type":"Utf"}'),
      ]);
      for (const p of [ENTITIES, "/ngsi-ld/v1/temporal/entities", "/ngsi-ld/v1/entityOperations/upsert"]) {
        const r = await http(
          app.url,
          "POST",
          p,
          p.endsWith("upsert") ? Buffer.concat([Buffer.from("["), body, Buffer.from("]")]) : body,
        );
        expect(r.status, `${p}: ${r.text}`).to.equal(400);
        expect(r.body).to.include({ type: `${PD}InvalidRequest`, detail: "The body is not valid UTF-8" });
      }
    }
    const rest = await http(app.url, "POST", "/v1/citizen-reports", Buffer.from([0x7b, 0xff, 0x7d]));
    expect(rest.status).to.equal(400);
    expect(await count("Utf")).to.equal("0");
  });

  it("refuses ids, types and names no IRI can hold (lone surrogates, U+FFFD, private use), storing nothing", async () => {
    const bodies = [
      '{"id":"urn:ngsi-ld:Iri:\\ud83d","type":"Iri"}',
      '{"id":"urn:ngsi-ld:Iri:\\ude00","type":"Iri"}',
      '{"id":"urn:ngsi-ld:Iri:1","type":"Iri","a\\udbff":{"type":"Property","value":1}}',
      '{"id":"urn:ngsi-ld:Iri:\\ufffd","type":"Iri"}',
      '{"id":"urn:ngsi-ld:Iri:\\ue000","type":"Iri"}',
      '{"id":"urn:ngsi-ld:Iri:\\u0085","type":"Iri"}',
      '{"id":"urn:ngsi-ld:Iri:2","type":"Iri\\ufffd"}',
      '{"id":"urn:ngsi-ld:Iri:3","type":"Iri","a\\ufdd0":{"type":"Property","value":1}}',
    ];
    for (const b of bodies) {
      const r = await http(app.url, "POST", ENTITIES, b);
      expect(r.status, `${b}: ${r.text}`).to.equal(400);
      expect(r.body)
        .to.have.property("type")
        .that.is.oneOf([`${PD}BadRequestData`, `${PD}InvalidRequest`]);
    }
    expect(await count("Iri")).to.equal("0");
    const ok = await http(app.url, "POST", ENTITIES, '{"id":"urn:ngsi-ld:Iri:\\ud83d\\ude97","type":"Iri"}');
    expect(ok.status, ok.text).to.equal(201);
    expect(ok.headers.get("location")).to.equal(`${ENTITIES}/urn:ngsi-ld:Iri:%F0%9F%9A%97`);
  });
});
