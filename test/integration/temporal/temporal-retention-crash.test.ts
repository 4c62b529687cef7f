import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startServer } from "../helpers/child-server";
import { http, linkTo, TEST_CONTEXT } from "../helpers/test-app";

const L = { Link: linkTo(TEST_CONTEXT) };
const B = "/ngsi-ld/v1";
const MAIN = path.resolve(__dirname, "../../../src/main.js");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const N = 500;
const iso = (t: number) => new Date(t).toISOString();
const idOf = (i: number) => `urn:ngsi-ld:Vehicle:rc${i}`;
const WINDOWS = {
  TEMPORAL_RAW_RETENTION: "2h",
  TEMPORAL_HOURLY_RETENTION: "1d",
  TEMPORAL_RETENTION_INTERVAL_MS: "20",
  TEMPORAL_SEAL_INTERVAL_MS: "50",
};

/** Starts the service with the retention windows and SIGKILLs it 0-250 ms after its history is open. */
async function killDuringPass(dataDir: string): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED: "off",
      FEED: "off",
      AUTH: "off",
      LOG_LEVEL: "info",
      ...WINDOWS,
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const exited = new Promise((r) => child.once("exit", r));
  await new Promise<void>((resolve) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("temporal history ready")) resolve();
    });
    child.once("exit", () => resolve());
  });
  await new Promise((r) => setTimeout(r, Math.random() * 250));
  child.kill("SIGKILL");
  await exited;
}

/**
 * The retention pass is crash-safe: 500 entities' histories (a day 3 days ago, an hour 5 hours ago, an
 * instance inside the raw window) are written with retention off; the service is then started with the
 * windows on and SIGKILLed three times at random moments of its first pass. After the last start every
 * instance is counted exactly once by the aggregated temporal API, the recent ones are still raw, and the
 * graph holds each folded instance once (no day shown both as its hours and as its aggregate).
 */
describe("temporal retention: kill -9 during the pass loses nothing and counts nothing twice", function () {
  this.timeout(240_000);

  it("answers the same totals after three SIGKILLs mid-pass", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-retcrash-"));
    const now = Date.now();
    const day3 = Math.floor((now - 3 * DAY) / DAY) * DAY;
    const hour5 = Math.floor((now - 5 * HOUR) / HOUR) * HOUR;
    const times = [day3 + HOUR, day3 + HOUR + 60_000, day3 + 2 * HOUR, hour5 + 60_000, hour5 + 120_000];
    const recent = now - 30 * 60_000;
    const valuesOf = (i: number) => [...times, recent].map((_, k) => i + k);
    try {
      let port = await freePort();
      let child = await startServer(dataDir, port, {
        TEMPORAL_RAW_RETENTION: "0",
        TEMPORAL_HOURLY_RETENTION: "0",
      });
      let base = `http://127.0.0.1:${port}`;
      const write = async (i: number) => {
        const v = valuesOf(i);
        const speed = [...times, recent].map((t, k) => ({
          type: "Property",
          value: v[k],
          observedAt: iso(t),
        }));
        const r = await http(
          base,
          "POST",
          `${B}/temporal/entities`,
          { id: idOf(i), type: "Vehicle", speed },
          L,
        );
        expect(r.status, r.text).to.equal(201);
      };
      for (let i = 0; i < N; i += 10) await Promise.all([...Array(10).keys()].map((k) => write(i + k)));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));

      for (let round = 0; round < 3; round++) await killDuringPass(dataDir);

      port = await freePort();
      child = await startServer(dataDir, port, WINDOWS);
      base = `http://127.0.0.1:${port}`;
      try {
        const agg = async (i: number) => {
          const r = await http(
            base,
            "GET",
            `${B}/temporal/entities/${idOf(i)}?options=aggregatedValues&aggrMethods=totalCount,sum&timerel=after&timeAt=1970-01-01T00:00:00Z`,
            undefined,
            L,
          );
          expect(r.status, r.text).to.equal(200);
          const s = (r.body as { speed: Record<string, [number][]> }).speed;
          return [s.totalCount[0][0], s.sum[0][0]];
        };
        const raw = async (i: number) => {
          const r = await http(
            base,
            "GET",
            `${B}/temporal/entities/${idOf(i)}?options=temporalValues`,
            undefined,
            L,
          );
          return (r.body as { speed: { values: [number, string][] } }).speed.values;
        };
        // the last start's pass finishes: the raw instances are the recent one only
        for (let k = 0; k < 200 && (await raw(N - 1)).length > 1; k++)
          await new Promise((r) => setTimeout(r, 50));
        for (let i = 0; i < N; i += 25) {
          const v = valuesOf(i);
          expect(await agg(i), idOf(i)).to.deep.equal([v.length, v.reduce((a, b) => a + b, 0)]);
          expect(await raw(i), idOf(i)).to.deep.equal([[v[v.length - 1], iso(recent).replace(".000Z", "Z")]]);
        }
        const folded = `PREFIX cgh: <https://w3id.org/citygraph/history#>
          SELECT (SUM(?c) AS ?n) (COUNT(?g) AS ?graphs) WHERE {
            GRAPH ?g { ?g cgh:count ?c ; cgh:start ?s ; cgh:entity ?e }
            FILTER(STRSTARTS(STR(?e), "urn:ngsi-ld:Vehicle:rc") && ?s < "${iso(hour5 + HOUR)}"^^<http://www.w3.org/2001/XMLSchema#dateTime>)
          }`;
        const want = { n: String(N * times.length), graphs: String(N * 2) }; // a day graph and an hour per entity
        let got: { n: string; graphs: string } = { n: "", graphs: "" };
        for (let k = 0; k < 300 && (got.n !== want.n || got.graphs !== want.graphs); k++) {
          const r = await http(base, "POST", "/sparql", folded, {
            "Content-Type": "application/sparql-query",
            Accept: "application/sparql-results+json",
          });
          const row = (r.body as { results: { bindings: Record<string, { value: string }>[] } }).results
            .bindings[0];
          got = { n: row.n?.value ?? "", graphs: row.graphs?.value ?? "" };
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(got).to.deep.equal(want);
      } finally {
        child.kill("SIGKILL");
        await new Promise((r) => child.once("exit", r));
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
