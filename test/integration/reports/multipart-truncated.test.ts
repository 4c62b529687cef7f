import { expect } from "chai";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { startTestApp, type TestApp } from "../helpers/test-app";

/** How a raw request ends: the whole declared body then wait for the answer, or cut off by the client. */
type Ending = "answer" | "half-close" | "abort";

/**
 * Sends `head` and `body` over a plain socket and resolves with the raw answer ("" when the server closed
 * without one). `half-close` declares a longer body than it sends and ends its side; `abort` destroys the
 * socket after the partial body.
 */
function raw(port: number, head: string, body: Buffer, ending: Ending): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    const got: Buffer[] = [];
    s.on("data", (b: Buffer) => got.push(b));
    s.on("error", () => undefined);
    s.on("close", () => resolve(Buffer.concat(got).toString("utf8")));
    s.setTimeout(10_000, () => s.destroy());
    const length = ending === "answer" ? body.length : body.length + 4096;
    s.write(`${head}Content-Length: ${length}\r\nConnection: close\r\n\r\n`);
    s.write(body, () => {
      if (ending === "half-close") s.end();
      else if (ending === "abort") setTimeout(() => s.destroy(), 50);
    });
  });
}

const FILE_HEADER = (field: string) =>
  `--zz\r\nContent-Disposition: form-data; name="${field}"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
const TEXT_PART = '--zz\r\nContent-Disposition: form-data; name="type"\r\n\r\naccident\r\n';

/** Malformed or truncated multipart bodies, with the Content-Type each is sent with. */
function variants(field: string): { name: string; contentType: string; body: string }[] {
  const mp = "multipart/form-data; boundary=zz";
  return [
    { name: "a file part without the closing boundary", contentType: mp, body: `${FILE_HEADER(field)}abc` },
    {
      name: "a text part, then a file part cut short",
      contentType: mp,
      body: `${TEXT_PART}${FILE_HEADER(field)}\xff\xd8\xff`,
    },
    { name: "a body that ends inside a part's headers", contentType: mp, body: "--zz\r\nContent-Dispos" },
    { name: "part headers without their blank line", contentType: mp, body: `${FILE_HEADER(field).trim()}` },
    {
      name: "a boundary the header does not name",
      contentType: mp,
      body: `--yy\r\n${FILE_HEADER(field)}abc`,
    },
    { name: "no boundary parameter", contentType: "multipart/form-data", body: `${FILE_HEADER(field)}abc` },
    { name: "an empty boundary", contentType: "multipart/form-data; boundary=", body: "--\r\n\r\n" },
    {
      name: "a closing boundary before any part",
      contentType: mp,
      body: `--zz--\r\n${FILE_HEADER(field)}abc`,
    },
  ];
}

const UPLOADS = [
  { path: "/v1/citizen-reports", field: "images" },
  { path: "/api/v1/citizen-reports", field: "images" },
  { path: "/open311/v2/requests.json", field: "media" },
];

/**
 * Every upload path answers a malformed or truncated multipart body with a 400 (or, when the client cut the
 * request, with nothing), stores nothing, and the service keeps answering: an error in the parser's, a
 * file's or the request's stream refuses that one request.
 */
describe("multipart uploads: malformed and truncated bodies", function () {
  this.timeout(60_000);
  let app: TestApp;
  let port: number;
  before(async () => {
    app = await startTestApp();
    port = Number(new URL(app.url).port);
  });
  after(async () => app?.destroy());

  const stored = async (): Promise<number> => {
    const res = await fetch(`${app.url}/ngsi-ld/v1/entities?type=CitizenReport&count=true&limit=0`, {
      headers: {
        Link: '<https://w3id.org/citygraph/contexts/traffic.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"',
      },
    });
    await res.arrayBuffer();
    return Number(res.headers.get("NGSILD-Results-Count") ?? "-1");
  };
  const healthy = async (): Promise<void> => {
    const h = await fetch(`${app.url}/health`);
    expect(h.status).to.equal(200);
    await h.arrayBuffer();
  };
  const media = () => {
    const dir = path.join(app.dataDir, "media");
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  for (const u of UPLOADS) {
    for (const v of variants(u.field)) {
      it(`POST ${u.path}: ${v.name} is a 400 and the service lives on`, async () => {
        const head = `POST ${u.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${v.contentType}\r\n`;
        const answer = await raw(port, head, Buffer.from(v.body, "latin1"), "answer");
        expect(answer, answer).to.match(/^HTTP\/1\.1 400 /);
        const json = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;
        if (u.path.startsWith("/open311")) expect(json).to.have.nested.property("0.code", 400);
        else
          expect((json.error as { code: string }).code).to.be.oneOf(["INVALID_PARAMETER", "INVALID_REQUEST"]);
        await healthy();
        expect(await stored()).to.equal(0);
      });
    }
    for (const ending of ["half-close", "abort"] as const) {
      it(`POST ${u.path}: a client that stops mid-file (${ending}) leaves the service up, nothing stored`, async () => {
        const head = `POST ${u.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=zz\r\n`;
        const answer = await raw(port, head, Buffer.from(`${TEXT_PART}${FILE_HEADER(u.field)}abc`), ending);
        if (answer) expect(answer).to.match(/^HTTP\/1\.1 4\d\d /);
        await healthy();
        expect(await stored()).to.equal(0);
      });
    }
  }

  it("keeps no file of a refused upload", () => {
    expect(media()).to.deep.equal([]);
  });

  it("still takes a well-formed upload afterwards", async () => {
    const f = new FormData();
    for (const [k, v] of Object.entries({
      type: "accident",
      title: "Crash at the crossing",
      description: "A car hit a motorbike at the crossing",
      latitude: "10.78",
      longitude: "106.7",
    }))
      f.set(k, v);
    const res = await fetch(`${app.url}/v1/citizen-reports`, { method: "POST", body: f });
    const text = await res.text();
    expect(res.status, text).to.equal(201);
    expect(await stored()).to.equal(1);
  });
});
