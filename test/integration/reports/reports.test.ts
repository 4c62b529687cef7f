import { expect } from "chai";
import sharp, { type Metadata } from "sharp";
import { RestAClient } from "../helpers/rest-a-client";
import { RestBClient } from "../helpers/rest-b-client";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import {
  accidentDoc,
  hasGps,
  north,
  phoneJpeg,
  phonePng,
  smallJpeg,
  until,
} from "../helpers/report-fixtures";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LINK =
  '<https://w3id.org/citygraph/contexts/traffic.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"';
const ngsi = (app: TestApp, id: string) =>
  http(app.url, "GET", `/ngsi-ld/v1/entities/${id}`, undefined, { Link: LINK });
const createEntity = (app: TestApp, doc: Obj) =>
  http(app.url, "POST", "/ngsi-ld/v1/entities", doc, { "Content-Type": "application/ld+json" });
const status = async (api: RestAClient, id: string) =>
  (await api.call("GET", `/v1/citizen-reports/${id}`)).body as Obj;
const scored = (app: TestApp, id: string) =>
  until(
    async () => ((await ngsi(app, `urn:ngsi-ld:CitizenReport:${id}`)).body as Obj).confidence !== undefined,
    8000,
    `score of ${id}`,
  );

/** Reports in every form, images made safe, thresholds, review, duplicates. */
describe("citizen reports: submission, images, verification, review, duplicates", function () {
  this.timeout(60_000);
  let app: TestApp;
  // every REST answer below is held to the service's OpenAPI documents
  let apiA: RestAClient;
  let apiB: RestBClient;
  before(async () => {
    app = await startTestApp({ SEED: "on" });
    apiA = new RestAClient(app.url);
    apiB = new RestBClient(app.url);
    await Promise.all([apiA.init(), apiB.init()]);
  });
  after(async () => app?.destroy());

  async function storedImage(reportId: string): Promise<Metadata> {
    const e = (await ngsi(app, `urn:ngsi-ld:CitizenReport:${reportId}`)).body as Obj;
    const urls = [e.images.value].flat() as string[];
    expect(urls[0]).to.match(/^\/v1\/media\/[0-9a-f]{64}\.jpg$/);
    const res = await fetch(app.url + urls[0]);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("image/jpeg");
    apiA.check("GET", urls[0], res.status, "image/jpeg", undefined);
    return sharp(Buffer.from(await res.arrayBuffer())).metadata();
  }

  it("JSON A with a phone JPEG: A's answer; the stored image is a JPEG within 1920x1080, upright, with no metadata", async () => {
    const jpeg = await phoneJpeg();
    const before = await sharp(jpeg).metadata();
    expect(hasGps(before.exif)).to.equal(true);
    const r = await apiA.call("POST", "/v1/citizen-reports", {
      category: "road_damage",
      location: { lat: 10.78, lon: 106.695 },
      description: "A deep pothole in the right lane <script>alert(1)</script>",
      images: [jpeg.toString("base64")],
      reporter: { name: "Lan", phone: "0901111222" },
    });
    expect(r.status).to.equal(201);
    const b = r.body as Obj;
    expect(Object.keys(b).sort()).to.deep.equal([
      "estimated_verification_time",
      "id",
      "status",
      "verification_status",
    ]);
    expect(b).to.include({ status: "submitted", verification_status: "pending" });
    expect(b.estimated_verification_time).to.match(/^\d+ minutes?$/);
    const m = await storedImage(b.id);
    expect(m.format).to.equal("jpeg");
    expect(m.exif, "no EXIF").to.equal(undefined);
    expect(m.xmp, "no XMP").to.equal(undefined);
    expect(m.icc, "no ICC").to.equal(undefined);
    expect(m.orientation ?? 1).to.equal(1);
    // 3000x2000 turned by its orientation tag is 2000x3000, then fit into 1920x1080
    expect([m.width, m.height]).to.deep.equal([720, 1080]);
    const e = (await ngsi(app, `urn:ngsi-ld:CitizenReport:${b.id}`)).body as Obj;
    expect(e.description.value).to.contain("<script>"); // stored as text, JSON-escaped on output
    expect(e.address.value).to.match(/District 1|District 3/);
    expect([e.refNearbyCamera.object].flat().length).to.be.greaterThan(0);
  });

  it("the form (multipart) with a PNG: the stored model, the image re-encoded as JPEG without metadata", async () => {
    const form = new FormData();
    form.set("type", "flooding");
    form.set("title", "Flooded street after rain");
    form.set("description", "Water is 30 cm deep across the whole street");
    form.set("latitude", "10.7626");
    form.set("longitude", "106.6822");
    form.set("severity", "high");
    form.set("reporter_name", "Minh");
    form.set("reporter_phone", "0903333444");
    form.append("images", new Blob([await phonePng()], { type: "image/png" }), "street.png");
    const res = await fetch(app.url + "/v1/citizen-reports", { method: "POST", body: form });
    const m0 = (await res.json()) as Obj;
    expect(res.status, JSON.stringify(m0)).to.equal(201);
    apiA.check("POST", "/v1/citizen-reports", res.status, res.headers.get("content-type") ?? "", m0);
    expect(m0).to.include({
      type: "flooding",
      title: "Flooded street after rain",
      status: "pending",
      severity: "high",
    });
    expect(m0.location.type).to.equal("Point");
    expect(m0.location.coordinates).to.deep.equal([106.6822, 10.7626]);
    expect(m0.location.address).to.be.a("string");
    expect(m0.metadata.source).to.equal("web");
    const m = await storedImage(m0.id);
    expect(m.format).to.equal("jpeg");
    expect(m.exif).to.equal(undefined);
    expect([m.width, m.height]).to.deep.equal([648, 1080]);
  });

  it("JSON B and the accident endpoints answer their own shapes", async () => {
    const rb = await apiB.call("POST", "/api/v1/citizen-reports", {
      category: "traffic_light",
      location: { lat: 10.8, lon: 106.66 },
      description: "The lights at the crossing are all dark",
      reporter: { name: "Hoa", contact: "hoa@example.com" },
    });
    expect(rb.status).to.equal(201);
    expect(Object.keys(rb.body as Obj).sort()).to.deep.equal([
      "id",
      "priority",
      "status",
      "verification_status",
    ]);
    expect((rb.body as Obj).priority).to.be.oneOf(["high", "normal", "none"]);
    const ra = await apiA.call("POST", "/v1/accidents/report", {
      location: { lat: 10.82, lon: 106.63 },
      severity: "moderate",
      description: "Car and motorbike collided at the corner",
      vehicles_involved: 2,
      injuries: 1,
      reporter: { name: "Tuan", phone: "0905555666", email: "t@example.com" },
    });
    expect(ra.status).to.equal(201);
    expect(ra.body).to.include({ status: "submitted", verification_status: "pending" });
    expect((ra.body as Obj).message).to.be.a("string");
    const rab = await apiB.call("POST", "/api/v1/accidents", {
      location: { lat: 10.84, lon: 106.61 },
      severity: "minor",
      description: "A scooter fell over on the bridge ramp",
      reported_by: "Quang",
    });
    expect(rab.status).to.equal(201);
    expect(rab.body).to.include({ status: "created", verification_status: "pending" });
    const sb = await apiB.call("GET", `/api/v1/citizen-reports/${(rab.body as Obj).id}`);
    expect(sb.body).to.include({ id: (rab.body as Obj).id, verification_status: "pending" });
    const e = (await ngsi(app, `urn:ngsi-ld:CitizenReport:${(ra.body as Obj).id}`)).body as Obj;
    expect(e.reportType.value).to.equal("accident");
    expect(e.severity.value).to.equal("medium");
    expect(e.vehiclesInvolved.value).to.equal(2);
  });

  it("the GraphQL mutation submitCitizenReport goes through the same submission", async () => {
    const query = `mutation { submitCitizenReport(input: {category: ROAD_DAMAGE, location: {lat: 10.81, lon: 106.71},
      description: "A deep pothole in the right lane here"}) { id status verificationStatus message } }`;
    const r = await http(app.url, "POST", "/graphql", { query });
    const got = (r.body as Obj).data.submitCitizenReport;
    expect(got).to.include({ status: "submitted", verificationStatus: "pending" });
    const e = (await ngsi(app, `urn:ngsi-ld:CitizenReport:${got.id}`)).body as Obj;
    expect(e.reportType.value).to.equal("road_damage");
  });

  it("a latitude outside the city is a 400 saying so", async () => {
    const r = await apiA.call("POST", "/v1/citizen-reports", {
      category: "other",
      location: { lat: 21.03, lon: 105.85 },
      description: "This is Hanoi, not Ho Chi Minh City",
    });
    expect(r.status).to.equal(400);
    expect((r.body as Obj).error.message).to.match(/inside the city/);
  });

  it("each threshold routes the report: <= 0.5 high review, (0.5, 0.85] normal review, > 0.85 verified", async () => {
    // anonymous text alone: 0.30 - 0.10 = 0.20
    const low = await apiA.call("POST", "/v1/citizen-reports", {
      category: "illegal_parking",
      location: { lat: 10.772, lon: 106.688 },
      description: "Trucks parked on the pavement all day",
    });
    await scored(app, (low.body as Obj).id);
    const lowE = (await ngsi(app, `urn:ngsi-ld:CitizenReport:${(low.body as Obj).id}`)).body as Obj;
    expect(lowE.confidence.value).to.equal(0.2);
    expect(lowE.reviewPriority.value).to.equal("high");
    expect(lowE.status.value).to.equal("pending");

    // a camera saw an accident 300 m away: 0.30 + 0.45 + 0.05 (named with a phone) = 0.80
    expect((await createEntity(app, accidentDoc("cam-a1", 106.66, 10.77, "moderate"))).status).to.equal(201);
    const [lon1, lat1] = north(106.66, 10.77, 300);
    const mid = await apiA.call("POST", "/v1/citizen-reports", {
      category: "accident",
      location: { lat: lat1, lon: lon1 },
      description: "Two cars crashed, traffic is blocked",
      reporter: { name: "Binh", phone: "0907777888" },
    });
    await scored(app, (mid.body as Obj).id);
    const midS = await status(apiA, (mid.body as Obj).id);
    expect(midS).to.include({ status: "submitted", verification_status: "pending", priority: "normal" });

    // the same with a photo, elsewhere: 0.30 + 0.45 + 0.05 + 0.10 = 0.90
    expect((await createEntity(app, accidentDoc("cam-a2", 106.63, 10.8, "severe"))).status).to.equal(201);
    const [lon2, lat2] = north(106.63, 10.8, 300);
    const high = await apiA.call("POST", "/v1/citizen-reports", {
      category: "accident",
      location: { lat: lat2, lon: lon2 },
      description: "Bus hit a motorbike at the junction",
      images: [(await smallJpeg()).toString("base64")],
      reporter: { name: "Chi", phone: "0908888999" },
    });
    await until(
      async () => (await status(apiA, (high.body as Obj).id)).status === "verified",
      8000,
      "auto verification",
    );
    const highS = await status(apiA, (high.body as Obj).id);
    expect(highS).to.include({ status: "verified", verification_status: "confirmed", priority: "none" });
    expect(highS.verified_at).to.be.a("string");
    const reviews = (await apiA.call("GET", "/v1/reviews")).body as Obj;
    const ids = reviews.reviews.map((x: Obj) => x.report_id);
    expect(ids)
      .to.include((low.body as Obj).id)
      .and.include((mid.body as Obj).id);
    expect(ids).not.to.include((high.body as Obj).id);
    expect(ids.indexOf((low.body as Obj).id)).to.be.lessThan(ids.indexOf((mid.body as Obj).id)); // high priority first
    const lowItem = reviews.reviews.find((x: Obj) => x.report_id === (low.body as Obj).id);
    expect(lowItem.evidence.map((x: Obj) => x.factor)).to.deep.equal(["base", "anonymous"]);
  });

  it("a pending report is re-scored when another report arrives near it", async () => {
    expect((await createEntity(app, accidentDoc("cam-a3", 106.6, 10.83, "moderate"))).status).to.equal(201);
    const [lon, lat] = north(106.6, 10.83, 300);
    const first = await apiA.call("POST", "/v1/citizen-reports", {
      category: "accident",
      location: { lat, lon },
      description: "Crash with a delivery van, one lane closed",
      reporter: { name: "Dung", phone: "0901010101" },
    });
    await scored(app, (first.body as Obj).id);
    expect((await status(apiA, (first.body as Obj).id)).priority).to.equal("normal");
    const [lon3, lat3] = north(106.6, 10.83, -300); // 600 m from the first: no duplicate, 300 m from the camera's accident
    await apiA.call("POST", "/v1/citizen-reports", {
      category: "accident",
      location: { lat: lat3 + 0.0036, lon: lon3 }, // ~100 m south of the first report's 500 m ring edge: within 500 m of it
      description: "Van crashed, police are on the way",
      reporter: { name: "Em", phone: "0902020202" },
    });
    await until(
      async () => (await status(apiA, (first.body as Obj).id)).status === "verified",
      8000,
      "re-score",
    );
  });

  it("confirming an accident report creates a TrafficAccident seen in NGSI-LD and SPARQL; a second decision is a 409", async () => {
    const r = await apiA.call("POST", "/v1/accidents/report", {
      location: { lat: 10.86, lon: 106.75 },
      severity: "high",
      description: "Truck overturned, cargo on the road",
      vehicles_involved: 1,
      injuries: 2,
    });
    const id = (r.body as Obj).id;
    await scored(app, id);
    const d = await apiA.call("POST", `/v1/reviews/${id}`, {
      decision: "confirm",
      note: "seen on camera 12",
    });
    expect(d.status).to.equal(200);
    const b = d.body as Obj;
    expect(b).to.include({ status: "verified", verification_status: "confirmed" });
    expect(b.verified_at).to.be.a("string");
    expect(b.linked_accident_id).to.be.a("string");
    const acc = (await ngsi(app, `urn:ngsi-ld:TrafficAccident:${b.linked_accident_id}`)).body as Obj;
    expect(acc.severity.value).to.equal("severe");
    expect(acc.injuries.value).to.equal(2);
    expect(acc.detectionMethod.value).to.equal("citizen_report");
    const q = `PREFIX traffic: <https://w3id.org/citygraph/traffic#>
      SELECT ?sev WHERE { <urn:ngsi-ld:TrafficAccident:${b.linked_accident_id}> a traffic:TrafficAccident ; traffic:severity ?sev . FILTER(isLiteral(?sev)) }`;
    const s = await http(app.url, "POST", "/sparql", q, {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(s.status).to.equal(200);
    expect((s.body as Obj).results.bindings.map((x: Obj) => x.sev.value)).to.deep.equal(["severe"]);
    expect((await status(apiA, id)).linked_accident_id).to.equal(b.linked_accident_id);
    const list = (await apiA.call("GET", "/v1/accidents?limit=100")).body as Obj;
    const shown = list.accidents.find((x: Obj) => x.id === b.linked_accident_id);
    expect(shown, "in /v1/accidents").to.not.equal(undefined);
    expect(shown.severity).to.equal("severe");
    const again = await apiA.call("POST", `/v1/reviews/${id}`, { decision: "reject" });
    expect(again.status).to.equal(409);
    expect((again.body as Obj).error.code).to.equal("CONFLICT");
    const reviews = await http(app.url, "GET", `/ngsi-ld/v1/entities?type=ReportReview`, undefined, {
      Link: LINK,
    });
    expect(
      (reviews.body as Obj[]).some((x) => x.refReport.object === `urn:ngsi-ld:CitizenReport:${id}`),
    ).to.equal(true);
  });

  it("rejecting a report; an unknown decision is a 400; an unknown report a 404", async () => {
    const r = await apiA.call("POST", "/v1/citizen-reports", {
      category: "other",
      location: { lat: 10.74, lon: 106.7 },
      description: "Someone is selling things on the road",
    });
    const id = (r.body as Obj).id;
    expect((await apiA.call("POST", `/v1/reviews/${id}`, { decision: "maybe" })).status).to.equal(400);
    const d = await apiA.call("POST", `/v1/reviews/${id}`, {
      decision: "reject",
      note: "not a traffic problem",
    });
    expect(d.body).to.include({ status: "rejected", verification_status: "rejected" });
    expect((await apiA.call("POST", `/v1/reviews/nope`, { decision: "reject" })).status).to.equal(404);
  });

  it("a report within 200 m and 30 minutes of an open one of the same kind is linked as its duplicate", async () => {
    const body = (lat: number) => ({
      category: "congestion",
      location: { lat, lon: 106.68 },
      description: "Traffic is not moving at all here",
    });
    const first = await apiA.call("POST", "/v1/citizen-reports", body(10.8));
    const second = await apiA.call("POST", "/v1/citizen-reports", body(10.8005));
    const s = await status(apiA, (second.body as Obj).id);
    expect(s.duplicate_of).to.equal(`urn:ngsi-ld:CitizenReport:${(first.body as Obj).id}`);
    const queue = ((await apiA.call("GET", "/v1/reviews")).body as Obj).reviews.map((x: Obj) => x.report_id);
    expect(queue).to.include((first.body as Obj).id);
    expect(queue).not.to.include((second.body as Obj).id);
    await apiA.call("POST", `/v1/reviews/${(first.body as Obj).id}`, { decision: "confirm" });
    await until(
      async () => (await status(apiA, (second.body as Obj).id)).status === "verified",
      5000,
      "duplicate follows",
    );
  });

  it("Open311 GeoReport v2: services, a POST, the request and the list", async () => {
    const services = (await http(app.url, "GET", "/open311/v2/services.json")).body as Obj[];
    expect(services.map((s) => s.service_code)).to.include("road_damage");
    const form = new URLSearchParams({
      service_code: "road_damage",
      lat: "10.79",
      long: "106.71",
      description: "Manhole cover missing on the main road",
      first_name: "Khanh",
      email: "k@example.com",
    });
    const res = await fetch(app.url + "/open311/v2/requests.json", { method: "POST", body: form });
    expect(res.status).to.equal(201);
    const [created] = (await res.json()) as Obj[];
    expect(created.service_request_id).to.be.a("string");
    const one = (await http(app.url, "GET", `/open311/v2/requests/${created.service_request_id}.json`))
      .body as Obj[];
    expect(one[0]).to.include({ service_code: "road_damage", status: "open", lat: 10.79, long: 106.71 });
    const list = (await http(app.url, "GET", "/open311/v2/requests.json?service_code=road_damage"))
      .body as Obj[];
    expect(list.map((x) => x.service_request_id)).to.include(created.service_request_id);
    const bad = await fetch(app.url + "/open311/v2/requests.json", {
      method: "POST",
      body: new URLSearchParams({ service_code: "x" }),
    });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as Obj[])[0].code).to.equal(400);
  });

  it("has checked a success of every report and review operation of both documents", () => {
    for (const api of [apiA, apiB]) {
      const ops = Object.entries(api.doc.paths).flatMap(([p, m]) =>
        Object.entries(m as Record<string, { tags: string[]; responses: Record<string, unknown> }>)
          .filter(([, op]) => ["citizen-reports", "reviews"].includes(op.tags[0]))
          .map(([x, op]) => `${x} ${p} ${Object.keys(op.responses).find((st) => st.startsWith("2"))}`),
      );
      expect(ops.length).to.equal(api === apiA ? 6 : 3);
      expect(ops.filter((o) => !api.checked.has(o))).to.deep.equal([]);
    }
  });
});
