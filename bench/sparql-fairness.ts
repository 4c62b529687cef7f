import { stopChild } from "./lib/child";
import { below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";

/**
 * `node dist/bench/sparql-fairness.js` (part of `npm run bench:sparql`): whether one principal's heavy
 * SPARQL queries hold up another's simple ones (docs/sparql.md "Limits"). A service with AUTH=on and the
 * HCMC seed; viewer B keeps sending a three-way cross product of every triple (each runs into
 * SPARQL_TIMEOUT, B's slot and queue stay full, its extra queries get 429) from BENCH_FAIR_HEAVY
 * clients (default 4), while viewer A sends `ASK` queries one after the other (BENCH_FAIR_SAMPLES, default
 * 100, alone; under B's load as many as fit in 15 s, at least that many). The bar: A's p99 < 1 s under load.
 */

const PASSWORD = "bench-admin-password";
const SAMPLES = Number(process.env.BENCH_FAIR_SAMPLES ?? 100);
/** A's queries under load go on at least this long, past SPARQL_TIMEOUT (10 s), so B's queries run throughout. */
const LOADED_MS = 15_000;
const HEAVY_CLIENTS = Number(process.env.BENCH_FAIR_HEAVY ?? 4);
const HEAVY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }";
const SIMPLE = "ASK { ?s a ?t }";
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function json(
  base: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** One /sparql query: its status and ms. */
async function sparql(base: string, token: string, query: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/sparql`, {
    method: "POST",
    headers: {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
      Authorization: `Bearer ${token}`,
    },
    body: query,
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

/** p50 and p99 (ms) of at least `SAMPLES` sequential simple queries for `minMs`, which must all answer 200. */
async function simpleLatency(
  base: string,
  token: string,
  minMs = 0,
): Promise<{ p50: number; p99: number; max: number; samples: number }> {
  const ms: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < SAMPLES || performance.now() - t0 < minMs; i++) {
    const r = await sparql(base, token, SIMPLE);
    if (r.status !== 200) throw new Error(`the simple query answered ${r.status}`);
    ms.push(r.ms);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * q))];
  return { p50: at(0.5), p99: at(0.99), max: ms[ms.length - 1], samples: ms.length };
}

export async function benchSparqlFairness(): Promise<{ rows: Row[]; run: Record<string, unknown> }> {
  const srv = await startServer({
    dataDir: freshDataDir(),
    env: { AUTH: "on", ADMIN_PASSWORD: PASSWORD, SEED: "on", RATE_LIMIT_PREMIUM: "1000000000" },
    timeoutMs: 600_000,
  });
  try {
    const base = srv.child.url;
    const admin = String(
      (await json(base, "/v1/auth/login", { username: "admin", password: PASSWORD })).access_token,
    );
    const token: Record<string, string> = {};
    for (const name of ["viewer-a", "viewer-b"]) {
      await json(
        base,
        "/v1/admin/users",
        { username: name, password: PASSWORD, role: "viewer", tier: "premium" },
        admin,
      );
      token[name] = String(
        (await json(base, "/v1/auth/login", { username: name, password: PASSWORD })).access_token,
      );
    }
    say(`[sparql fairness] ${SAMPLES} ASK of viewer A alone`);
    const alone = await simpleLatency(base, token["viewer-a"]);

    say(`[sparql fairness] the same while viewer B sends cross products from ${HEAVY_CLIENTS} clients`);
    const heavy = { sent: 0, ranToLimit: 0, statuses: {} as Record<string, number> };
    let running = true;
    const loops = Array.from({ length: HEAVY_CLIENTS }, async () => {
      while (running) {
        const r = await sparql(base, token["viewer-b"], HEAVY);
        heavy.sent++;
        heavy.statuses[r.status] = (heavy.statuses[r.status] ?? 0) + 1;
        if (r.ms > 5000) heavy.ranToLimit++;
        else await sleep(50); // refused at once (B's slot and queue are full): try again shortly
      }
    });
    await sleep(1000); // B's slot and queue are taken
    const loaded = await simpleLatency(base, token["viewer-a"], LOADED_MS);
    running = false;
    await Promise.all(loops);
    const rows: Row[] = [
      info("sparql fairness", "viewer A ASK p99, alone", alone.p99, "ms", `p50 ${alone.p50.toFixed(1)} ms`),
      below(
        "sparql fairness",
        "viewer A ASK p99, B heavy",
        loaded.p99,
        "ms",
        1000,
        `p50 ${loaded.p50.toFixed(1)} ms, max ${loaded.max.toFixed(0)} ms, ${loaded.samples} ASK; B: ${heavy.ranToLimit} ran to the limit, ${JSON.stringify(heavy.statuses)}`,
      ),
    ];
    return { rows, run: { alone, loaded, heavy, samples: SAMPLES, heavyClients: HEAVY_CLIENTS } };
  } finally {
    await stopChild(srv.child, 60_000);
  }
}

if (require.main === module) {
  benchSparqlFairness()
    .then(({ rows, run }) => {
      run.machine = machineFacts();
      const file = writeResults({ sparqlFairness: run, rows }, "sparql-fairness-");
      say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
    })
    .catch((e: unknown) => {
      process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    });
}
