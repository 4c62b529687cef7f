import http from "node:http";
import { rmSync } from "node:fs";
import { peakRssBytes, rssBytes, stopChild, waitFor200 } from "./lib/child";
import { freshDataDir, startServer } from "./lib/server";

/**
 * `node dist/bench/ldes-hosts.js`: what one client can make the LDES face spend. The seeded city and its
 * live feed (FEED_BACKFILL, default 2h, written at start) fill 2-minute pages; on the fullest closed page, 10 GET requests for it with `Host: h0.example` … `h9.example` (each a fresh origin when the IRIs
 * follow Host), then one JSON-LD GET, while `/health/live` is asked every 50 ms. Prints each request's
 * time and bytes, the service's RSS before and after, and the slowest `/health/live`.
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const MB = 1024 * 1024;

interface Answer {
  status: number;
  bytes: number;
  ms: number;
  text: string;
}

/** GET over node:http, which lets a client name any Host. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        const body = Buffer.concat(parts);
        resolve({
          status: res.statusCode ?? 0,
          bytes: body.length,
          ms: performance.now() - t0,
          text: "" + body,
        });
      });
    });
    req.on("error", reject);
  });
}

/** The page paths the view links, oldest first. */
async function pagePaths(port: number): Promise<string[]> {
  const view = await get(port, "/ldes/view", { Accept: "application/n-triples" });
  return [
    ...new Set([...view.text.matchAll(/tree#node> <[a-z]+:\/\/[^/]+([^>]+)>/g)].map((m) => m[1])),
  ].sort();
}

async function main(): Promise<void> {
  const dataDir = freshDataDir();
  const backfill = process.env.BENCH_FEED_BACKFILL ?? "2h";
  const { child } = await startServer({
    dataDir,
    timeoutMs: 900_000,
    env: { SEED: "on", FEED: "on", FEED_BACKFILL: backfill, LDES_PAGE: "2m", TEMPORAL_RAW_RETENTION: "0" },
  });
  try {
    await waitFor200(child, "/health/ready", 900_000);
    // the pages written during the backfill close 2 min + 10 s after their start
    await new Promise((r) => setTimeout(r, 140_000));
    // closed pages only: a closed page is rendered once and then kept, an open one is rendered each time
    const paths = (await pagePaths(child.port)).filter(
      (p) => Date.parse(p.split("/")[3]) + 130_000 < Date.now(),
    );
    let fullest = { path: "", bytes: 0 };
    for (const p of paths) {
      const a = await get(child.port, p, { Accept: "text/turtle", Host: "warm.example" });
      if (a.bytes > fullest.bytes) fullest = { path: p, bytes: a.bytes };
    }
    say(
      `backfill ${backfill}; ${paths.length} pages; fullest ${fullest.path}: ${(fullest.bytes / MB).toFixed(1)} MB`,
    );
    let slowestLive = 0;
    let probing = true;
    const probe = (async () => {
      while (probing) {
        slowestLive = Math.max(slowestLive, (await get(child.port, "/health/live")).ms);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const rss0 = rssBytes(child.proc.pid) ?? 0;
    for (let i = 0; i < 10; i++) {
      const a = await get(child.port, fullest.path, { Accept: "text/turtle", Host: `h${i}.example` });
      say(`Host h${i}.example: ${a.status}, ${(a.bytes / MB).toFixed(2)} MB, ${a.ms.toFixed(0)} ms`);
    }
    const rss1 = rssBytes(child.proc.pid) ?? 0;
    const jsonld = await get(child.port, fullest.path, { Accept: "application/ld+json" });
    say(`JSON-LD: ${jsonld.status}, ${(jsonld.bytes / MB).toFixed(2)} MB, ${jsonld.ms.toFixed(0)} ms`);
    probing = false;
    await probe;
    say(`RSS ${(rss0 / MB).toFixed(0)} MB -> ${(rss1 / MB).toFixed(0)} MB after the 10 requests`);
    say(`peak RSS ${((peakRssBytes(child.proc.pid) ?? 0) / MB).toFixed(0)} MB`);
    say(`slowest /health/live meanwhile: ${slowestLive.toFixed(0)} ms`);
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
