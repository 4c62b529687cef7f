import http from "node:http";
import { rmSync } from "node:fs";
import { stopChild } from "./lib/child";
import { FUZZ_CLASSES, fuzzRequest, rng, type FuzzRequest } from "./lib/fuzz-inputs";
import { below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";

/**
 * `npm run bench` part 5 (hardening): BENCH_FUZZ_REQUESTS (default 6,000) generated hostile requests
 * (bench/lib/fuzz-inputs.ts: regex, nesting, ids, geometry, headers, SPARQL size, encodings, lang,
 * truncated multipart uploads, in turn) from
 * BENCH_FUZZ_CONCURRENCY (default 8) clients against the service as a child process with its default
 * configuration. Reported: answers that are 5xx (a bare 503 for an unreachable @context apart), requests
 * answered after more than 1 s or never (hangs), partial writes (an id a refused write named that is
 * stored afterwards, or a change in the number of entities or subscriptions), and the slowest GET /health
 * polled every 100 ms during the run.
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function num(name: string, def: number): number {
  const v = Number(process.env[name] ?? def);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
}

/** One request; resolves with status, body text and ms, or status 0 after `timeoutMs`. */
function send(
  base: string,
  q: FuzzRequest,
  timeoutMs: number,
): Promise<{ status: number; text: string; ms: number }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      base + q.path,
      { method: q.method, agent, headers: q.headers, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - t,
          }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, text: "", ms: performance.now() - t }));
    req.end(q.body);
  });
}

async function counts(base: string): Promise<string[]> {
  const h = (p: string) => fetch(base + p).then((r) => r.headers.get("ngsild-results-count") ?? "?");
  return [
    await h("/ngsi-ld/v1/entities?local=true&count=true&limit=0"),
    await h("/ngsi-ld/v1/subscriptions?count=true&limit=0"),
  ];
}

async function main(): Promise<void> {
  const total = num("BENCH_FUZZ_REQUESTS", 6000);
  const width = num("BENCH_FUZZ_CONCURRENCY", 8);
  const started = new Date().toISOString();
  const dataDir = freshDataDir();
  const { child } = await startServer({ dataDir, env: { OUTBOUND_ALLOW_LOOPBACK: "off" } });
  const base = child.url;
  const rows: Row[] = [];
  const run: Record<string, unknown> = { started, machine: machineFacts(), total, width };
  try {
    const target = {
      id: "urn:ngsi-ld:Fuzz:target",
      type: "Fuzz",
      name: { type: "Property", value: `${"a".repeat(28)}!` },
      // read back without a language map: the `lang` class renders it
      label: { type: "LanguageProperty", languageMap: {} },
    };
    await fetch(`${base}/ngsi-ld/v1/entities`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(target),
    });
    // a first SPARQL query before the run, so that its one-time costs are not in it
    await fetch(`${base}/sparql?query=ASK%20%7B%7D`).then((x) => x.arrayBuffer());
    const before = await counts(base);
    const r = rng(42);
    let healthWorst = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const t = performance.now();
        await fetch(`${base}/health`)
          .then((x) => x.arrayBuffer())
          .catch(() => undefined);
        healthWorst = Math.max(healthWorst, performance.now() - t);
        await new Promise((res) => setTimeout(res, 100));
      }
    })();
    const perClass = new Map<string, { sent: number; fivexx: number; hangs: number; accepted: number }>();
    const fails: string[] = [];
    const named = new Map<string, FuzzRequest>();
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < total) {
          const i = next++;
          const q = fuzzRequest(FUZZ_CLASSES[i % FUZZ_CLASSES.length], r, i);
          if (q.id && q.method !== "GET") named.set(q.id, q);
          const a = await send(base, q, 10_000);
          const c = perClass.get(q.kind) ?? { sent: 0, fivexx: 0, hangs: 0, accepted: 0 };
          if (!q.mayAnswer && a.status < 400) c.accepted++;
          c.sent++;
          const contextUnavailable = a.status === 503 && a.text.includes("LdContextNotAvailable");
          if (a.status >= 500 && !contextUnavailable) {
            c.fivexx++;
            if (fails.length < 20)
              fails.push(`${q.method} ${q.path.slice(0, 80)} -> ${a.status} ${a.text.slice(0, 160)}`);
          }
          if (a.status === 0 || a.ms > 1000) {
            c.hangs++;
            if (fails.length < 20)
              fails.push(
                `slow ${Math.round(a.ms)} ms: ${q.method} ${q.path.slice(0, 60)} ${q.body?.length ?? 0} B -> ${a.status}`,
              );
          }
          perClass.set(q.kind, c);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    polling = false;
    await poll;
    const after = await counts(base);
    let partial = before.join() === after.join() ? 0 : 1;
    for (const [id, q] of named) {
      if (id.length > 2048 || !/^urn:ngsi-ld:/.test(id)) continue;
      const g = await fetch(`${base}/ngsi-ld/v1/entities/${encodeURIComponent(id)}`);
      if (g.status === 200) {
        partial++;
        if (fails.length < 40)
          fails.push(`stored: ${id.slice(0, 80)} by ${q.method} ${q.path} ${JSON.stringify(q.headers)}`);
      }
    }
    const sum = (k: "fivexx" | "hangs" | "accepted") => [...perClass.values()].reduce((s, c) => s + c[k], 0);
    rows.push(info("fuzz", "requests", total, "", `${width} clients, ${seconds.toFixed(1)} s`));
    rows.push(
      below("fuzz", "5xx answers", sum("fivexx"), "", 1, "a bare 503 for an unreachable @context apart"),
    );
    rows.push(below("fuzz", "hangs (> 1 s or none)", sum("hangs"), "", 1));
    rows.push(below("fuzz", "hostile requests accepted (2xx)", sum("accepted"), "", 1));
    rows.push(below("fuzz", "partial writes", partial, "", 1, `${named.size} refused writes checked`));
    rows.push(info("fuzz", "slowest GET /health", healthWorst, "ms", "polled every 100 ms during the run"));
    run.perClass = Object.fromEntries(perClass);
    run.failures = fails;
    run.counts = { before, after };
    run.seconds = seconds;
    run.healthWorstMs = healthWorst;
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    agent.destroy();
  }
  run.rows = rows;
  run.finished = new Date().toISOString();
  run.loadavgAtEnd = machineFacts().loadavg;
  const file = writeResults(run, "fuzz-");
  say(`\n${formatTable(rows)}\n\nper class: ${JSON.stringify(run.perClass)}\nJSON: ${file}`);
  if ((run.failures as string[]).length) say(`first failures:\n${(run.failures as string[]).join("\n")}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
