import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { WEEK_ATTRS, weekOfCamera } from "../helpers/week-query";

const ID = "urn:ngsi-ld:TrafficFlowObserved:pandas1";
const START = Date.UTC(2026, 10, 20);
const DOC_ID = "urn:ngsi-ld:TrafficFlowObserved:12";

/** The docs' SPARQLWrapper + pandas example (the python block of docs/sparql.md). */
function docExample(): string {
  const doc = fs.readFileSync(path.join(__dirname, "../../../../docs/sparql.md"), "utf8");
  const m = /```python\n(import pandas[\s\S]*?)```/.exec(doc);
  if (!m) throw new Error("docs/sparql.md has no pandas example");
  return m[1];
}

/** Debian's python3, where apt installs pandas and SPARQLWrapper (a pyenv one on PATH may lack them). */
const PYTHON = fs.existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

function python(code: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(PYTHON, ["-c", code], { timeout: 60_000 }, (err, stdout, stderr) =>
      err
        ? reject(new Error(`python3 failed (needs python3-pandas, python3-sparqlwrapper): ${stderr}`))
        : resolve(stdout),
    ),
  );
}

describe("SPARQL: the docs' pandas example loads a week of one camera", function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ TEMPORAL_SEAL_INTERVAL_MS: "50" });
  });
  after(async () => app?.destroy());

  it("gives a DataFrame with one column per attribute and the temporal API's values", async () => {
    const w = await http(app.url, "POST", "/ngsi-ld/v1/temporal/entities", weekOfCamera(ID, START));
    expect(w.status, w.text).to.equal(201);
    const code = docExample()
      .replace("http://localhost:1026/sparql", `${app.url}/sparql`)
      .replaceAll(DOC_ID, ID)
      .replace("print(week.describe())", 'print(week.to_json(orient="split", date_format="iso"))');
    const hours = `SELECT (COUNT(?s) AS ?n) WHERE { GRAPH ?s { ?s <https://w3id.org/citygraph/history#entity> <${ID}> } }`;
    for (let i = 0; i < 400; i++) {
      const r = await http(app.url, "POST", "/sparql", hours, {
        "Content-Type": "application/sparql-query",
        Accept: "text/csv",
      });
      if (r.text.trim().endsWith(String(7 * 24))) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const out = JSON.parse(await python(code)) as { columns: string[]; index: string[]; data: number[][] };
    expect(out.columns).to.deep.equal(["averageVehicleSpeed", "intensity"]);
    expect(out.index.length).to.equal(7 * 24 * 12);
    const t = await http(
      app.url,
      "GET",
      `/ngsi-ld/v1/temporal/entities/${ID}?attrs=${encodeURIComponent(WEEK_ATTRS.speed)}&options=temporalValues`,
    );
    const api = (t.body as Record<string, { values: [number, string][] }>)[WEEK_ATTRS.speed].values;
    expect(out.data.map((r) => r[0])).to.deep.equal(api.map(([v]) => v));
    expect(out.index.map((i) => Date.parse(i))).to.deep.equal(api.map(([, at]) => Date.parse(at)));
  });
});
