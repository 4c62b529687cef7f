import { rmSync } from "node:fs";
import { TRAFFIC_ENTITY_CONTEXT } from "../../src/domain/vocabulary";
import { bareKoa, flags } from "../lib/ceilings";
import { stopChild } from "../lib/child";
import { constantRate } from "../lib/constant-rate";
import { getLoad } from "../lib/http-scenarios";
import { atLeast, below, formatTable, info, machineFacts, writeResults, type Row } from "../lib/report";
import { freshDataDir, startServer } from "../lib/server";
import { readSettings } from "../lib/settings";

/**
 * `npm run bench:rest-b` (and the last part of `npm run bench`): REST variant B on the seeded city,
 * with the bare-Koa ceiling measured in the same run: a page of the page form, a page of the cursor
 * form, and the 5-minute flow of one camera over 24 hours of 1-minute history at a paced rate.
 */

const MIN = 60_000;
const FLOW_CAMERA = "0";
/** Offered rate of the paced flow scenario (requests per second). */
const FLOW_RATE = 50;
const say = (s: string): void => void process.stdout.write(`${s}\n`);

/** Writes 24 hours of 1-minute TrafficFlowObserved history for one camera through the temporal API. */
async function fillFlowHistory(url: string, now: number): Promise<void> {
  const id = `urn:ngsi-ld:TrafficFlowObserved:${FLOW_CAMERA}`;
  const at = (t: number) => ({ observedAt: new Date(t).toISOString() });
  const latest = {
    id,
    type: "TrafficFlowObserved",
    refCamera: { type: "Relationship", object: `urn:ngsi-ld:TrafficCamera:${FLOW_CAMERA}` },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.69, 10.79] } },
    intensity: { type: "Property", value: 40, ...at(now) },
    averageVehicleSpeed: { type: "Property", value: 30, ...at(now) },
    "@context": TRAFFIC_ENTITY_CONTEXT,
  };
  const up = await fetch(`${url}/ngsi-ld/v1/entityOperations/upsert`, {
    method: "POST",
    headers: { "Content-Type": "application/ld+json" },
    body: JSON.stringify([latest]),
  });
  if (!up.ok) throw new Error(`upsert: ${up.status} ${await up.text()}`);
  const series = (f: (k: number) => number) =>
    Array.from({ length: 1440 }, (_, k) => ({
      type: "Property",
      value: f(k),
      ...at(now - (1440 - k) * MIN),
    }));
  const body = {
    intensity: series((k) => 20 + (k % 60)),
    carCount: series((k) => 5 + (k % 10)),
    motorcycleCount: series((k) => 15 + (k % 50)),
    truckCount: series(() => 0),
    busCount: series(() => 0),
    averageVehicleSpeed: series((k) => 20 + (k % 30)),
    occupancy: series(() => 0.2),
    "@context": TRAFFIC_ENTITY_CONTEXT,
  };
  const r = await fetch(`${url}/ngsi-ld/v1/temporal/entities/${encodeURIComponent(id)}/attrs`, {
    method: "POST",
    headers: { "Content-Type": "application/ld+json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`temporal append: ${r.status} ${await r.text()}`);
}

async function main(): Promise<void> {
  const s = readSettings();
  const rows: Row[] = [];
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    settings: s,
  };
  say(`citygraph REST B bench: ${JSON.stringify(run.machine)}`);

  say("\n[1/4] bare Koa ceiling: GET / -> 200 ok");
  const koa = await bareKoa(s);
  run.bareKoa = koa;
  rows.push(info("bare-koa", "GET / req/s", koa.okPerSec, "req/s", flags(koa)));

  const dataDir = freshDataDir();
  const server = await startServer({ dataDir, env: { SEED: "on" } });
  const url = server.child.url;
  try {
    const now = Date.now();
    await fillFlowHistory(url, now);
    const page3 = "/api/v1/cameras?page=3&limit=20";
    say(`\n[2/4] GET ${page3}`);
    const pageForm = await getLoad(url, page3, s);
    run.pageForm = pageForm;
    rows.push(
      atLeast(
        "rest-b",
        `GET ${page3} / bare Koa`,
        pageForm.okPerSec / koa.okPerSec,
        "x",
        0.15,
        `${pageForm.okPerSec.toFixed(0)} req/s; ${flags(pageForm) ?? ""}`,
      ),
    );

    const first = (await (await fetch(`${url}/api/v1/cameras?limit=20&cursor=`)).json()) as {
      pagination: { next_cursor: string };
    };
    const second = (await (
      await fetch(`${url}/api/v1/cameras?limit=20&cursor=${encodeURIComponent(first.pagination.next_cursor)}`)
    ).json()) as { pagination: { next_cursor: string } };
    const cursorPath = `/api/v1/cameras?limit=20&cursor=${encodeURIComponent(second.pagination.next_cursor)}`;
    say("\n[3/4] GET /api/v1/cameras?limit=20&cursor=<third page>");
    const cursorForm = await getLoad(url, cursorPath, s);
    run.cursorForm = cursorForm;
    rows.push(
      atLeast(
        "rest-b",
        "GET cursor page (limit 20) / bare Koa",
        cursorForm.okPerSec / koa.okPerSec,
        "x",
        0.15,
        `${cursorForm.okPerSec.toFixed(0)} req/s; ${flags(cursorForm) ?? ""}`,
      ),
    );

    const start = new Date(now - 24 * 60 * MIN).toISOString();
    const end = new Date(now).toISOString();
    const flowPath = `/api/v1/traffic/flow?camera_id=${FLOW_CAMERA}&interval=5m&start_time=${start}&end_time=${end}`;
    const check = (await (await fetch(url + flowPath)).json()) as { observations: unknown[] };
    if (check.observations.length < 280)
      throw new Error(`flow answered ${check.observations.length} windows, not 288`);
    say(
      `\n[4/4] GET /api/v1/traffic/flow?interval=5m over 24 h, ${FLOW_RATE} req/s offered for ${s.seconds} s`,
    );
    const flow = await constantRate({
      url,
      path: flowPath,
      rate: FLOW_RATE,
      durationS: s.seconds,
      connections: 8,
    });
    run.flow = { ...flow, windows: check.observations.length };
    const bad = Object.entries(flow.statusCodes).filter(([c]) => !c.startsWith("2"));
    rows.push(
      below(
        "rest-b",
        "GET /traffic/flow?interval=5m, 24 h p99",
        flow.latencyMs.p99,
        "ms",
        30,
        `p50 ${flow.latencyMs.p50.toFixed(1)} ms; ${check.observations.length} windows from 1,440 samples${bad.length ? `; FLAG ${JSON.stringify(bad)}` : ""}`,
      ),
    );
  } finally {
    await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.finished = new Date().toISOString();
  run.rows = rows;
  const file = writeResults(run, "rest-b-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
