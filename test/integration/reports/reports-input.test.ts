import { Ajv2020 } from "ajv/dist/2020";
import { expect } from "chai";
import { RestAClient } from "../helpers/rest-a-client";
import { RestBClient } from "../helpers/rest-b-client";
import { smallJpeg, storedReports } from "../helpers/report-fixtures";
import { startTestApp, type TestApp } from "../helpers/test-app";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const REPORT = {
  category: "road_damage",
  location: { lat: 10.78, lon: 106.7 },
  description: "A deep pothole in the right lane",
};

/**
 * Each face validates a report, review or subscription body with the schema it declares (the one its
 * OpenAPI document shows) before the domain sees it: what the document refuses is a 400 in the face's
 * own error format, and nothing is stored.
 */
describe("citizen reports, reviews and alert subscriptions: each face's declared input rules", function () {
  this.timeout(60_000);
  let app: TestApp;
  let apiA: RestAClient;
  let apiB: RestBClient;
  before(async () => {
    app = await startTestApp({ SEED: "on" });
    apiA = new RestAClient(app.url);
    apiB = new RestBClient(app.url);
    await Promise.all([apiA.init(), apiB.init()]);
  });
  after(async () => app?.destroy());

  const stored = () => storedReports(app.url);
  const error = (r: { status: number; body: unknown }, status = 400) => {
    expect(r.status, JSON.stringify(r.body)).to.equal(status);
    return (r.body as Obj).error as { code: string; message: string; details: Obj };
  };

  it("documents each body (JSON, the form's fields and files) with 413 and 415", () => {
    const a = apiA.doc.paths as Obj;
    const submit = a["/citizen-reports"].post;
    expect(Object.keys(submit.requestBody.content)).to.deep.equal([
      "application/json",
      "multipart/form-data",
    ]);
    const form = submit.requestBody.content["multipart/form-data"].schema;
    expect(form.required).to.deep.equal(["type", "title", "description", "latitude", "longitude"]);
    expect(form.properties.images).to.include({ type: "array", maxItems: 5 });
    expect(Object.keys(submit.responses)).to.include.members(["413", "415"]);
    expect(
      a["/reviews/{report_id}"].post.requestBody.content["application/json"].schema.required,
    ).to.deep.equal(["decision"]);
    for (const api of [apiA, apiB])
      for (const [p, ops] of Object.entries(api.doc.paths as Obj))
        for (const [m, op] of Object.entries(ops as Obj)) {
          const body = (op as Obj).requestBody;
          if (body) expect(Object.keys(body.content), `${m} ${p}`).to.include("application/json");
        }
  });

  it("JSON: a coordinate as text, a point outside the city, a reporter of neither shape are 400s naming the field", async () => {
    const text = error(
      await apiA.call("POST", "/v1/citizen-reports", { ...REPORT, location: { lat: "10.78", lon: 106.7 } }),
    );
    expect(text.code).to.equal("INVALID_PARAMETER");
    expect(text.details).to.include({ parameter: "location.lat", value: "10.78" });
    expect(text.message).to.match(/must be number/);
    const far = error(
      await apiA.call("POST", "/v1/citizen-reports", { ...REPORT, location: { lat: 21.03, lon: 105.85 } }),
    );
    expect(far.message).to.equal("The location must be inside the city (Ho Chi Minh City)");
    expect(far.details).to.include({ parameter: "location.lat", value: 21.03 });
    const who = error(await apiB.call("POST", "/api/v1/citizen-reports", { ...REPORT, reporter: 42 }));
    expect(who.details).to.deep.include({
      parameter: "reporter",
      expected: "a name, or {name, contact, is_anonymous}",
    });
    const missing = error(await apiB.call("POST", "/api/v1/accidents", { description: REPORT.description }));
    expect(missing).to.deep.include({
      code: "INVALID_REQUEST",
      message: "Missing required body parameter: location",
    });
    const half = error(
      await apiA.call("POST", "/v1/accidents/report", { ...REPORT, location: { lat: 10.78 } }),
    );
    expect(half.details).to.deep.equal({ parameter: "location.lon" });
    const count = error(await apiA.call("POST", "/v1/accidents/report", { ...REPORT, injuries: 1.5 }));
    expect(count.details).to.include({ parameter: "injuries", value: 1.5 });
    expect(await stored()).to.equal(0);
  });

  it("JSON: an image that is not base64 is refused by the face, before the domain", async () => {
    const e = error(await apiA.call("POST", "/v1/citizen-reports", { ...REPORT, images: ["!!!"] }));
    expect(e.details).to.include({ parameter: "images[0]", expected: "a base64 string" });
    const over = error(
      await apiA.call("POST", "/v1/citizen-reports", { ...REPORT, images: Array(6).fill("AAAA") }),
    );
    expect(over.details).to.include({ parameter: "images", expected: "an array of at most 5 items" });
    expect(await stored()).to.equal(0);
  });

  it("another media type is a 415 on every route with a body", async () => {
    for (const [api, p] of [
      [apiA, "/v1/citizen-reports"],
      [apiA, "/v1/accidents/report"],
      [apiA, "/v1/reviews/x"],
      [apiB, "/api/v1/alerts/subscriptions"],
    ] as const) {
      const e = error(
        await api.call("POST", p, JSON.stringify(REPORT), { "Content-Type": "text/plain" }),
        415,
      );
      expect(e.code, p).to.equal("INVALID_REQUEST");
      expect(e.message, p).to.match(/^Send application\/json/);
    }
  });

  it("the form: its fields are held to the form's schema once parsed; files go in 'images'", async () => {
    const form = (fields: Record<string, string>, file = "images") => {
      const f = new FormData();
      const all: Record<string, string> = {
        type: "flooding",
        title: "Flooded street after rain",
        description: "Water is 30 cm deep across the whole street",
        latitude: "10.7626",
        longitude: "106.6822",
        ...fields,
      };
      for (const [k, v] of Object.entries(all)) f.set(k, v);
      return { f, file };
    };
    const post = async ({ f, file }: { f: FormData; file: string }, jpeg?: Buffer) => {
      if (jpeg) f.append(file, new Blob([jpeg], { type: "image/jpeg" }), "photo.jpg");
      const res = await fetch(`${app.url}/api/v1/citizen-reports`, { method: "POST", body: f });
      const body = (await res.json()) as Obj;
      apiB.check("POST", "/api/v1/citizen-reports", res.status, res.headers.get("content-type") ?? "", body);
      return { status: res.status, body };
    };
    const source = error(await post(form({ source: "api" })));
    expect(source.details).to.deep.include({
      parameter: "source",
      value: "api",
      expected: ["web", "mobile"],
    });
    const lat = error(await post(form({ latitude: "10.2" })));
    expect(lat.message).to.match(/inside the city/);
    expect(lat.details).to.include({ parameter: "latitude" });
    const title = error(await post(form({ title: "" })));
    expect(title).to.deep.include({
      code: "INVALID_REQUEST",
      message: "Missing required form parameter: title",
    });
    const stray = error(await post(form({}, "photo"), await smallJpeg()));
    expect(stray.details).to.include({ parameter: "photo" });
    expect(await stored()).to.equal(0);
    const ok = await post(form({ is_anonymous: "1", reporter_name: "Minh" }), await smallJpeg());
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    expect(ok.body.reporter).to.deep.equal({ isAnonymous: true });
    expect(ok.body.images).to.have.length(1);
  });

  it("a review decision and an alert subscription are held to their schemas", async () => {
    const note = error(
      await apiA.call("POST", "/v1/reviews/x", { decision: "confirm", note: "n".repeat(2001) }),
    );
    expect(note.details).to.include({ parameter: "note" });
    const none = error(await apiA.call("POST", "/v1/reviews/x", { note: "no decision" }));
    expect(none).to.deep.include({
      code: "INVALID_REQUEST",
      message: "Missing required body parameter: decision",
    });
    const sub = { alert_types: ["accident"], channels: ["webhook"], webhook_url: "http://127.0.0.1:9/hook" };
    const empty = error(await apiA.call("POST", "/v1/alerts/subscriptions", { ...sub, alert_types: [] }));
    expect(empty.details).to.include({ parameter: "alert_types" });
    const upper = error(
      await apiB.call("POST", "/api/v1/alerts/subscriptions", { ...sub, channels: ["WEBHOOK"] }),
    );
    expect(upper.details).to.deep.include({
      parameter: "channels[0]",
      expected: ["email", "push", "sms", "webhook"],
    });
    const url = error(
      await apiA.call("POST", "/v1/alerts/subscriptions", { ...sub, webhook_url: "ftp://x/y" }),
    );
    expect(url.details).to.include({ parameter: "webhook_url" });
    expect(((await apiA.call("GET", "/v1/alerts/subscriptions")).body as Obj).subscriptions).to.deep.equal(
      [],
    );
  });

  it("what each document's request schema refuses is what the route refuses", async () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addFormat("uri", (s: string) => URL.canParse(s));
    const schemaOf = (api: RestAClient | RestBClient, p: string) =>
      ajv.compile((api.doc.paths as Obj)[p].post.requestBody.content["application/json"].schema);
    const cases: [RestAClient | RestBClient, string, string, Obj][] = [
      [apiA, "/v1", "/citizen-reports", { ...REPORT, severity: "severe" }],
      [apiA, "/v1", "/citizen-reports", { ...REPORT, severity: "SEVERE" }],
      [apiA, "/v1", "/citizen-reports", { ...REPORT, title: "short" }],
      [
        apiB,
        "/api/v1",
        "/citizen-reports",
        { ...REPORT, reporter: { name: "Hoa", contact: "hoa@example.com" } },
      ],
      [apiB, "/api/v1", "/citizen-reports", { ...REPORT, category: "fire" }],
      [apiB, "/api/v1", "/accidents", { ...REPORT, reported_by: "Quang" }],
      [apiA, "/v1", "/accidents/report", { ...REPORT, vehicles_involved: -1 }],
      [apiA, "/v1", "/alerts/subscriptions", { alert_types: ["weather"], channels: ["sms"], phone: "x" }],
    ];
    for (const [api, prefix, p, body] of cases) {
      const documented = schemaOf(api, p)(body);
      const r = await api.call("POST", prefix + p, body);
      expect(r.status === 400, `${p} ${JSON.stringify(body)}: ${r.text}`).to.equal(!documented);
    }
  });

  it("JSON and GraphQL: blank optional fields are absent; a nested fault is named by its path", async () => {
    const before = await stored();
    // apart in place and kind, so that none is taken for a duplicate of another
    const blankA = await apiA.call("POST", "/v1/citizen-reports", {
      ...REPORT,
      category: "flooding",
      location: { lat: 10.8, lon: 106.65 },
      title: " ",
      reporter: { name: "", phone: "", email: "" },
    });
    expect(blankA.status, JSON.stringify(blankA.body)).to.equal(201);
    const blankB = await apiB.call("POST", "/api/v1/citizen-reports", {
      ...REPORT,
      category: "illegal_parking",
      location: { lat: 10.75, lon: 106.72 },
      reporter: { name: "", contact: "" },
    });
    expect(blankB.status, JSON.stringify(blankB.body)).to.equal(201);
    // and the OpenAPI documents say so
    for (const doc of ["/v1/openapi.json", "/api/v1/openapi.json"]) {
      const info = ((await (await fetch(app.url + doc)).json()) as { info: { description: string } }).info;
      expect(info.description, doc).to.contain("optional text field that is blank");
    }
    const accident = await apiA.call("POST", "/v1/accidents/report", {
      ...REPORT,
      location: { lat: 10.85, lon: 106.77 },
      reporter: "",
    });
    expect(accident.status, JSON.stringify(accident.body)).to.equal(201);
    const gql = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        query: `mutation { submitCitizenReport(input: {category: ROAD_DAMAGE, location: {lat: 10.78, lon: 106.7},
          description: "A deep pothole in the left lane", reporter: {name: "", phone: ""}}) { id } }`,
      }),
    });
    const g = (await gql.json()) as Obj;
    expect(g.errors, JSON.stringify(g)).to.equal(undefined);
    expect(await stored()).to.equal(before + 4);
    const ids = [blankA, blankB, accident].map((r) => (r.body as Obj).id as string);
    let queue: Obj[] = [];
    // verification runs after the answer; the queue lists a report once it is scored
    for (let i = 0; i < 100 && !ids.every((id) => queue.some((x) => x.report_id === id)); i++) {
      await new Promise((r) => setTimeout(r, 100));
      queue = ((await apiA.call("GET", "/v1/reviews")).body as Obj).reviews as Obj[];
    }
    for (const r of [blankA, blankB, accident]) {
      const item = queue.find((x) => x.report_id === (r.body as Obj).id);
      expect(item, "a blank report waits for review").to.not.equal(undefined);
      expect(item!.reporter, "blank contacts are none: an anonymous reporter").to.deep.equal({
        is_anonymous: true,
      });
      expect(item!.title).to.equal(null);
    }
    const long = error(
      await apiA.call("POST", "/v1/citizen-reports", {
        ...REPORT,
        reporter: { name: "n".repeat(101), phone: "" },
      }),
    );
    expect(long.message).to.equal("Invalid value of reporter.name: must NOT have more than 100 characters");
    expect(long.details).to.include({ parameter: "reporter.name", value: "n".repeat(101) });
    const flag = error(
      await apiB.call("POST", "/api/v1/citizen-reports", { ...REPORT, reporter: { is_anonymous: "yes" } }),
    );
    expect(flag.details).to.include({ parameter: "reporter.is_anonymous", value: "yes" });
    expect(await stored()).to.equal(before + 4);
  });
});
