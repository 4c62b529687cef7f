import http from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import sharp from "sharp";
import { stopChild } from "./lib/child";
import { runLoad, type LoadRequest } from "./lib/load";
import { below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";

/**
 * `npm run bench` part 5 (citizen reports and alerts), the service as a child process with the seeded
 * city (districts and cameras, so enrichment does its real work):
 *
 * - **report JSON**: POST /v1/citizen-reports without images, BENCH_REPORT_SECONDS (default 10 s) at 8
 *   connections; each report at another point of the city (no duplicates); reports per second.
 * - **report multipart**: the same with the form and one ~2 MB JPEG photo (decoded, turned, resized to
 *   1920x1080, re-encoded without metadata); reports per second.
 * - **alert fan-out**: 1,000 webhook alert subscriptions for accidents anywhere; BENCH_ALERT_ACCIDENTS
 *   (default 10) accidents written one after another through NGSI-LD; per delivery the time from the
 *   write's acknowledgement to its arrival at the webhook: p50, p99 (target p99 < 1 s), max.
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const SUBSCRIPTIONS = 1000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function num(name: string, def: number): number {
  const v = Number(process.env[name] ?? def);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
}

function post(base: string, path: string, body: unknown, type = "application/json"): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + path,
      { method: "POST", agent, headers: { "Content-Type": type, "Content-Length": Buffer.byteLength(data) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

/** A point of the city centre, spread so that no two reports are duplicates (> 200 m apart). */
function spot(i: number): { lat: number; lon: number } {
  return { lat: 10.7 + (i % 60) * 0.0025, lon: 106.6 + (Math.floor(i / 60) % 60) * 0.0025 };
}

/** A noisy photo of about 2 MB (noise does not compress). */
async function photo(): Promise<Buffer> {
  const w = 2200;
  const h = 1500;
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

function multipartBody(i: number, jpeg: Buffer): { body: Buffer; type: string } {
  const boundary = "----citygraphbench" + i;
  const p = spot(i + 100_000);
  const fields: Record<string, string> = {
    type: "road_damage",
    title: "Pothole in the right lane",
    description: "A deep pothole, motorbikes swerve around it",
    latitude: String(p.lat),
    longitude: String(p.lon),
    severity: "medium",
  };
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
  );
  parts.push(jpeg, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

async function main(): Promise<void> {
  const seconds = num("BENCH_REPORT_SECONDS", 10);
  const accidents = num("BENCH_ALERT_ACCIDENTS", 10);
  const rows: Row[] = [];
  const run: Record<string, unknown> = { started: new Date().toISOString(), machine: machineFacts() };
  const dataDir = freshDataDir();
  const server = await startServer({ dataDir, env: { SEED: "on" }, timeoutMs: 120_000 });
  const base = server.child.url;
  try {
    say(`\n[reports] JSON submissions, ${seconds} s at 8 connections`);
    let n = 0;
    const json = await runLoad({
      url: base,
      connections: 8,
      durationS: seconds,
      requests: [
        {
          method: "POST",
          path: "/v1/citizen-reports",
          headers: { "Content-Type": "application/json" },
          setupRequest: (req: LoadRequest) => ({
            ...req,
            body: JSON.stringify({
              category: "congestion",
              location: spot(n++),
              description: "Traffic is not moving at this junction",
              reporter: { name: "Bench", phone: "0900000000" },
            }),
          }),
        },
      ],
    });
    run.json = json;
    rows.push(
      info(
        "reports",
        "JSON submissions/s",
        json.okPerSec,
        "req/s",
        `p99 ${json.latencyMs.p99} ms, non-2xx ${json.non2xx}`,
      ),
    );

    const jpeg = await photo();
    say(
      `\n[reports] multipart with one ${(jpeg.length / 1e6).toFixed(1)} MB photo, ${seconds} s at 4 connections`,
    );
    let m = 0;
    const multi = await runLoad({
      url: base,
      connections: 4,
      durationS: seconds,
      timeoutS: 30,
      requests: [
        {
          method: "POST",
          path: "/v1/citizen-reports",
          setupRequest: (req: LoadRequest) => {
            const { body, type } = multipartBody(m++, jpeg);
            return { ...req, body: body as unknown as string, headers: { "Content-Type": type } };
          },
        },
      ],
    });
    run.multipart = { ...multi, photoBytes: jpeg.length };
    rows.push(
      info(
        "reports",
        "multipart + 2 MB photo/s",
        multi.okPerSec,
        "req/s",
        `photo ${(jpeg.length / 1e6).toFixed(2)} MB, p99 ${multi.latencyMs.p99} ms, non-2xx ${multi.non2xx}`,
      ),
    );

    say(`\n[alerts] fan-out to ${SUBSCRIPTIONS} webhook subscriptions, ${accidents} accidents`);
    const arrivals = new Map<string, number[]>();
    const hook = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const at = performance.now();
        const id = (JSON.parse(Buffer.concat(chunks).toString()) as { alert: { id: string } }).alert.id;
        const list = arrivals.get(id) ?? [];
        list.push(at);
        arrivals.set(id, list);
        res.statusCode = 204;
        res.end();
      });
    });
    hook.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", () => r()));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alert`;
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const st = await post(base, "/v1/alerts/subscriptions", {
        user_id: `u${i}`,
        alert_types: ["accident"],
        severity_threshold: "minor",
        channels: ["webhook"],
        webhook_url: hookUrl,
      });
      if (st !== 201) throw new Error(`subscription answered ${st}`);
    }
    const latencies: number[] = [];
    for (let k = 0; k < accidents; k++) {
      const p = spot(200_000 + k * 7);
      const id = `bench${k}`;
      const doc = {
        id: `urn:ngsi-ld:TrafficAccident:${id}`,
        type: "TrafficAccident",
        timestamp: { type: "Property", value: { "@type": "DateTime", "@value": new Date().toISOString() } },
        location: { type: "GeoProperty", value: { type: "Point", coordinates: [p.lon, p.lat] } },
        severity: { type: "Property", value: "severe" },
        status: { type: "Property", value: "active" },
        detectionMethod: { type: "Property", value: "camera_vision" },
        "@context": [
          "https://w3id.org/citygraph/contexts/traffic.jsonld",
          "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld",
        ],
      };
      const st = await post(base, "/ngsi-ld/v1/entities", doc, "application/ld+json");
      const acked = performance.now();
      if (st !== 201) throw new Error(`accident answered ${st}`);
      const key = `accident-${id}`;
      const end = acked + 30_000;
      while ((arrivals.get(key)?.length ?? 0) < SUBSCRIPTIONS && performance.now() < end)
        await new Promise((r) => setTimeout(r, 5));
      const got = arrivals.get(key) ?? [];
      for (const t of got) latencies.push(Math.max(0, t - acked));
      for (let miss = got.length; miss < SUBSCRIPTIONS; miss++) latencies.push(Infinity);
    }
    hook.close();
    latencies.sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
    run.alerts = {
      subscriptions: SUBSCRIPTIONS,
      accidents,
      p50: q(0.5),
      p99: q(0.99),
      max: latencies[latencies.length - 1],
    };
    rows.push(
      below(
        "alerts",
        "fan-out to 1,000 webhooks p99",
        q(0.99),
        "ms",
        1000,
        `p50 ${q(0.5).toFixed(0)} ms, max ${latencies[latencies.length - 1].toFixed(0)} ms, ${accidents} accidents`,
      ),
    );
  } finally {
    await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.rows = rows;
  const file = writeResults(run, "reports-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${String(e instanceof Error ? e.stack : e)}\n`);
  process.exit(1);
});
