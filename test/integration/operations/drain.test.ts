import httpClient from "node:http";
import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

/** A POST whose body is sent in two parts: the request is in flight until `finish` is called. */
function slowPost(base: string, path: string, body: string) {
  const u = new URL(path, base);
  const req = httpClient.request({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method: "POST",
    headers: { "Content-Type": "application/ld+json", "Content-Length": Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { answer, finish: () => req.end(body.slice(half)) };
}

describe("the drain of a shutdown", function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => (app = await startTestApp()));
  after(() => app.destroy());

  it("is not ready at once, refuses new requests with 503 and Retry-After, lets in-flight ones finish", async () => {
    const entity = JSON.stringify({
      id: "urn:ngsi-ld:Thing:drain1",
      type: "Thing",
      name: { type: "Property", value: "in flight" },
      "@context": "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld",
    });
    const write = slowPost(app.url, "/ngsi-ld/v1/entities", entity);
    await new Promise((r) => setTimeout(r, 200)); // the request is being read
    const stopped = app.shutdown(20_000);
    let settled = false;
    void stopped.then(() => (settled = true));

    const ready = await http(app.url, "GET", "/health/ready");
    expect(ready.status).to.equal(503);
    expect(ready.body).to.deep.equal({ status: "not ready", notReady: ["shutting down"] });
    const live = await http(app.url, "GET", "/health/live");
    expect(live.status).to.equal(200);
    const refused = await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing");
    expect(refused.status, refused.text).to.equal(503);
    expect(refused.headers.get("retry-after")).to.equal("5");
    expect((refused.body as { title: string }).title).to.equal("Unavailable");
    expect(settled).to.equal(false); // still waiting for the write

    write.finish();
    const done = await write.answer;
    expect(done.status, done.text).to.equal(201);
    await stopped;
  });
});
