import { expect } from "chai";
import { request } from "node:http";
import sharp from "sharp";
import { http as call, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";

const SUBS = "/ngsi-ld/v1/subscriptions";
const LD = { "Content-Type": "application/ld+json" };
const TRAFFIC = "https://w3id.org/citygraph/contexts/traffic.jsonld";
const PUBLIC_URL = "https://traffic.example.org/city";

type Obj = Record<string, unknown>;

/** An Open311 request with a photo; its `media_url`. */
async function open311MediaUrl(app: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c33" } })
    .png()
    .toBuffer();
  const form = new FormData();
  for (const [k, v] of Object.entries({
    service_code: "road_damage",
    lat: "10.79",
    long: "106.71",
    description: "Manhole cover missing on the main road",
  }))
    form.append(k, v);
  form.append("media", new Blob([png], { type: "image/png" }), "photo.png");
  const res = await fetch(app.url + "/open311/v2/requests.json", { method: "POST", body: form, headers });
  expect(res.status, await res.clone().text()).to.equal(201);
  const [created] = (await res.json()) as Obj[];
  const one = (await call(app.url, "GET", `/open311/v2/requests/${String(created.service_request_id)}.json`))
    .body as Obj[];
  return String(one[0].media_url);
}

/** A POST with the Host header given (fetch does not send one of its own choosing). */
function postWithHost(url: string, host: string, body: unknown, type: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { Host: host, "Content-Type": type } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * The links a face writes into its answers and into what it stores start with PUBLIC_URL when it is set,
 * whatever Host or Origin a request names; without it, with the address the client reached.
 */
describe("links the service writes: their origin", function () {
  this.timeout(60_000);
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.destroy();
    app = undefined;
  });

  it("without PUBLIC_URL: the address the client reached, never the request's Origin header", async () => {
    app = await startTestApp();
    const media = await open311MediaUrl(app, { Origin: "https://elsewhere.example" });
    expect(media.startsWith(`${app.url}/`), media).to.equal(true);
  });

  it("with PUBLIC_URL: an ImplicitlyCreated @context and a report's media, whatever Host says", async () => {
    app = await startTestApp({ PUBLIC_URL });
    const status = await postWithHost(
      app.url + SUBS,
      "evil.example",
      {
        id: "urn:ngsi-ld:Subscription:origin1",
        type: "Subscription",
        entities: [{ type: "Camera" }],
        notification: { endpoint: { uri: "http://127.0.0.1:9/hook" } },
        "@context": [TRAFFIC, TEST_CONTEXT],
      },
      LD["Content-Type"],
    );
    expect(status).to.equal(201);
    const sub = (await call(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:origin1`)).body as Obj;
    expect(String(sub.jsonldContext)).to.match(new RegExp(`^${PUBLIC_URL}/ngsi-ld/v1/jsonldContexts/`));
    const media = await open311MediaUrl(app, { Origin: "https://evil.example" });
    expect(media.startsWith(`${PUBLIC_URL}/`), media).to.equal(true);
  });
});
