import { expect } from "chai";
import { flowDoc, upsert } from "../helpers/traffic-fixture";
import { startTestApp, type TestApp } from "../helpers/test-app";
import { mulberry32 as rng } from "../../../src/demo/feed/prng";

type Op = { parameters: { name: string; in: string }[] };

const NASTY = [
  "",
  " ",
  "-1",
  "0",
  "1e400",
  "-1e400",
  "NaN",
  "Infinity",
  "99999999999999999999999",
  "1.5",
  "0x10",
  "null",
  "undefined",
  "[]",
  "{}",
  "true",
  "%00",
  "Quận 1",
  "district 1",
  "😀🚗",
  "\u202e\u0000",
  "a".repeat(5000),
  "0001-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "2025-02-30T00:00:00Z",
  "2025-12-07",
  "2025-12-07T25:61:00Z",
  "10.77,106.7",
  "91,181",
  "-0,-0",
  "hour",
  "week",
  "temporal",
  "spatial",
  "correlation",
  "active",
  "severe",
  "quan-1",
  "../../etc/passwd",
  "' OR 1=1 --",
];

describe("REST variant A parameter fuzzing: bad input never yields a 5xx", function () {
  this.timeout(180_000);
  let app: TestApp;
  let doc: { paths: Record<string, Record<string, Op>> };
  before(async () => {
    app = await startTestApp({ SEED: "on" });
    const now = Date.now();
    for (let k = 8; k >= 0; k--) {
      await upsert(app.url, [
        flowDoc({ id: "0", lon: 106.691, lat: 10.7919 }, now - k * 15 * 60_000, 50, 20 + k),
      ]);
    }
    doc = (await (await fetch(`${app.url}/v1/openapi.json`)).json()) as typeof doc;
  });
  after(async () => app.destroy());

  it("answers 2xx or a 4xx error body for random values of every parameter of every GET operation", async () => {
    const r = rng(19);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const value = () => {
      const k = r();
      if (k < 0.6) return pick(NASTY);
      if (k < 0.75) return String(Math.floor((r() - 0.5) * 10 ** Math.floor(r() * 20)));
      if (k < 0.9) return new Date(Math.floor((r() - 0.3) * 8e15)).toISOString().replace(/^\+0*/, "");
      // any code point but the surrogates (a URL cannot carry a lone one)
      const cp = () => {
        const c = Math.floor(r() * 0x2ffff);
        return c >= 0xd800 && c <= 0xdfff ? 0x1f697 : c;
      };
      return String.fromCodePoint(...Array.from({ length: 1 + Math.floor(r() * 12) }, cp));
    };
    let sent = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      const op = ops.get;
      if (!op || path === "/openapi.json") continue;
      for (let i = 0; i < 40; i++) {
        const qs = new URLSearchParams();
        let p = path;
        for (const prm of op.parameters) {
          if (prm.in === "path")
            p = p.replace(
              `{${prm.name}}`,
              encodeURIComponent(r() < 0.3 ? pick(["0", "1", "quan-1"]) : value()),
            );
          else if (r() < 0.7) {
            qs.append(prm.name, value());
            if (r() < 0.1) qs.append(prm.name, value()); // a repeated parameter
          }
        }
        if (r() < 0.2) qs.append(value(), value()); // an unknown parameter
        const url = `${app.url}/v1${p}?${qs.toString()}`;
        const res = await fetch(url);
        sent++;
        const text = await res.text();
        expect(res.status, `${url} -> ${text.slice(0, 300)}`).to.be.below(500);
        if (res.status >= 400) {
          const body = JSON.parse(text) as { error: { code: string; message: string; details: object } };
          expect(body.error.code, url).to.be.oneOf(["INVALID_PARAMETER", "INVALID_REQUEST", "NOT_FOUND"]);
          expect(body.error.message).to.be.a("string");
          expect(body.error.details).to.be.an("object");
        }
      }
    }
    expect(sent).to.be.greaterThan(500);
  });
});
