import { expect } from "chai";
import { FUZZ_CLASSES, fuzzRequest, rng, type FuzzRequest } from "../../../bench/lib/fuzz-inputs";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { healthDuring, slowestHealth } from "../helpers/health-probe";

/** Requests per class and run; the bench (bench/fuzz.ts) sends thousands against a separate process. */
const PER_CLASS = 30;
/** Sizes of the generated inputs (fuzz-inputs.ts): small, still past every limit, so the test stays light. */
const SCALE = 0.05;

/**
 * Fuzz tests: generated hostile inputs per class get a 4xx (reads that may succeed get no
 * 5xx), nothing is committed, and /health keeps answering within 100 ms while they run.
 */
describe("fuzz: generated hostile requests per class", function () {
  this.timeout(120_000);
  let app: TestApp;
  // 100 ms, or twice a control run's slowest /health: no class blocks the event loop near 100 ms, a loaded machine alone does.
  let bound = 100;
  before(async () => {
    app = await startTestApp();
    const target = {
      id: "urn:ngsi-ld:Fuzz:target",
      type: "Fuzz",
      name: { type: "Property", value: `${"a".repeat(28)}!` },
      // read back without a language map: the `lang` class renders it
      label: { type: "LanguageProperty", languageMap: {} },
    };
    expect((await http(app.url, "POST", "/ngsi-ld/v1/entities", target)).status).to.equal(201);
    expect(
      (await http(app.url, "POST", "/sparql", "ASK {}", { "Content-Type": "application/sparql-query" }))
        .status,
    ).to.equal(200);
    const control = await slowestHealth(app.url, () => new Promise((r) => setTimeout(r, 1500)));
    bound = Math.max(100, 2 * control);
  });
  after(async () => app.destroy());

  /** What the service holds: entities of every type, subscriptions, temporal entities. */
  const stored = async () => {
    const all = await http(app.url, "GET", "/ngsi-ld/v1/entities?local=true&count=true&limit=0");
    const subs = await http(app.url, "GET", "/ngsi-ld/v1/subscriptions?count=true&limit=0");
    const temporal = await http(app.url, "GET", "/ngsi-ld/v1/temporal/entities?type=Fuzz");
    return [all.headers.get("ngsild-results-count"), subs.headers.get("ngsild-results-count"), temporal.text];
  };
  const send = (q: FuzzRequest) => http(app.url, q.method, q.path, q.body, q.headers);

  for (const [k, kind] of FUZZ_CLASSES.entries()) {
    it(`${kind}: ${PER_CLASS} generated requests get 4xx, store nothing, /health stays under 100 ms (or twice a control run)`, async () => {
      const r = rng(1000 + k);
      const requests = Array.from({ length: PER_CLASS }, (_, i) => fuzzRequest(kind, r, i, SCALE));
      const before = await stored();
      const bad: string[] = [];
      const worst = await healthDuring(app.url, async () => {
        bad.length = 0;
        for (let i = 0; i < requests.length; i += 2) {
          const answers = await Promise.all(requests.slice(i, i + 2).map(send));
          answers.forEach((a, j) => {
            const q = requests[i + j];
            const ok = q.mayAnswer ? a.status < 500 : a.status >= 400 && a.status < 500;
            if (!ok) bad.push(`${q.method} ${q.path.slice(0, 80)} -> ${a.status} ${a.text.slice(0, 120)}`);
          });
        }
      });
      expect(bad, bad.join("\n")).to.deep.equal([]);
      expect(await stored(), "something was stored").to.deep.equal(before);
      for (const q of requests.filter((x) => x.id && x.id.length < 2000 && /^urn:ngsi-ld:/.test(x.id))) {
        for (const face of ["entities", "temporal/entities"]) {
          const got = await http(app.url, "GET", `/ngsi-ld/v1/${face}/${encodeURIComponent(q.id as string)}`);
          expect(got.status, `${face} ${q.id}`).to.be.oneOf([400, 404]);
        }
      }
      expect(worst, `bound ${bound.toFixed(0)} ms`).to.be.below(bound);
    });
  }
});
