import http from "node:http";
import type { AddressInfo } from "node:net";
import { stopChild } from "./lib/child";
import { freshDataDir, startServer } from "./lib/server";

/**
 * Subscription matching cost on the write path (issue 4 item 2: "10,000 subscriptions do not make a
 * write slow"): the latency of sequential PATCHes of one Camera with 0 subscriptions, then with 10,000
 * (100 on Camera, notifying a local receiver; 9,900 on 99 other types), service as a child process,
 * in-process queue. Prints p50/p99 of each and the notifications received.
 */
const WRITES = 2000;

async function post(base: string, path: string, body: unknown, method = "POST"): Promise<number> {
  const r = await fetch(base + path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  await r.arrayBuffer();
  return r.status;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function writes(base: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const t = process.hrtime.bigint();
    const st = await post(
      base,
      "/ngsi-ld/v1/entities/urn:ngsi-ld:Camera:b/attrs",
      { speed: { type: "Property", value: i } },
      "PATCH",
    );
    if (st !== 204) throw new Error(`PATCH answered ${st}`);
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

async function main(): Promise<void> {
  let received = 0;
  const rx = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => rx.listen(0, "127.0.0.1", () => r()));
  const hook = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/notify`;
  const server = await startServer({ dataDir: freshDataDir() });
  const base = server.child.url;
  await post(base, "/ngsi-ld/v1/entities", {
    id: "urn:ngsi-ld:Camera:b",
    type: "Camera",
    speed: { type: "Property", value: 0 },
  });
  await writes(base); // warm-up
  const none = await writes(base);
  const subscribe = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const type = i >= 9_900 ? "Camera" : `Other${i % 99}`;
      const st = await post(base, "/ngsi-ld/v1/subscriptions", {
        type: "Subscription",
        entities: [{ type }],
        notification: { endpoint: { uri: hook }, format: "keyValues" },
      });
      if (st !== 201) throw new Error(`subscription create answered ${st}`);
    }
  };
  await subscribe(0, 9_900);
  const unmatched = await writes(base);
  await subscribe(9_900, 10_000);
  received = 0;
  const t0 = Date.now();
  const many = await writes(base);
  const writeMs = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 3000));
  const row = (name: string, xs: number[]) =>
    `${name.padEnd(40)} p50 ${pct(xs, 50).toFixed(2)} ms  p99 ${pct(xs, 99).toFixed(2)} ms`;
  console.log(row("PATCH, 0 subscriptions", none));
  console.log(row("PATCH, 9,900 subscriptions (none match)", unmatched));
  console.log(row("PATCH, 10,000 subscriptions (100 match)", many));
  console.log(
    `notifications received within 3 s after the writes: ${received} of ${WRITES * 100}; writes took ${writeMs} ms`,
  );
  await stopChild(server.child);
  rx.close();
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
