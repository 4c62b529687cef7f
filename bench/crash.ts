import { rmSync } from "node:fs";
import { makeEntity } from "./lib/entities";
import { LD_JSON, NGSI } from "./lib/http-scenarios";
import { below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer, type StartedServer } from "./lib/server";

/**
 * `kill -9` under 16 writers: the service on one data directory, 16 clients that create the bench's
 * entities (POST) and change their `intensity` (PATCH) as fast as they are answered, SIGKILL at a random
 * moment, restart, and so on for BENCH_CRASH_ROUNDS rounds. Then every acknowledged write is read back:
 * an entity whose POST was acknowledged must exist, and its `intensity` must be the last acknowledged
 * PATCH value or a later one the kill cut off unanswered. Prints acknowledged writes and writes lost
 * (the bar: 0).
 *
 * Run: `node dist/bench/crash.js` (BENCH_CRASH_ROUNDS, default 5; BENCH_CRASH_WRITERS, default 16).
 */
const ROUNDS = Number(process.env.BENCH_CRASH_ROUNDS ?? 5);
const WRITERS = Number(process.env.BENCH_CRASH_WRITERS ?? 16);
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What the clients were told about one entity. */
interface Acked {
  /** The entity's number (makeEntity). */
  n: number;
  /** The last acknowledged intensity, and the last one sent (acknowledged or not). */
  intensity: number;
  sent: number;
}

/** One writer until `stop()` says so: a POST, then PATCHes of the entity, then the next entity. */
async function writer(
  base: string,
  first: number,
  acked: Map<string, Acked>,
  counts: { posts: number; patches: number },
  stop: () => boolean,
): Promise<void> {
  for (let n = first; !stop(); n++) {
    const e = makeEntity(n, true);
    const id = e.id as string;
    try {
      const r = await fetch(`${base}${NGSI}/entities`, {
        method: "POST",
        headers: LD_JSON,
        body: JSON.stringify(e),
      });
      await r.arrayBuffer();
      if (r.status !== 201) continue;
      const start = (e.intensity as { value: number }).value;
      const a: Acked = { n, intensity: start, sent: start };
      acked.set(id, a);
      counts.posts++;
      for (let k = 1; k <= 3 && !stop(); k++) {
        const value = start + k * 10_000;
        a.sent = value;
        const p = await fetch(`${base}${NGSI}/entities/${id}/attrs`, {
          method: "PATCH",
          headers: LD_JSON,
          body: JSON.stringify({ intensity: { type: "Property", value }, "@context": e["@context"] }),
        });
        await p.arrayBuffer();
        if (p.status === 204) {
          a.intensity = value;
          counts.patches++;
        }
      }
    } catch {
      return; // the connection died with the service
    }
  }
}

/** Reads every acknowledged entity back; returns the ids whose state an acknowledgement contradicts. */
async function lostWrites(base: string, acked: Map<string, Acked>): Promise<string[]> {
  const lost: string[] = [];
  for (const [id, a] of acked) {
    const r = await fetch(`${base}${NGSI}/entities/${id}?options=keyValues`);
    if (r.status !== 200) {
      lost.push(`${id}: ${r.status}`);
      continue;
    }
    const body = (await r.json()) as { intensity?: number; name?: string };
    const want = makeEntity(a.n, false) as { name: { value: string } };
    const v = body.intensity ?? NaN;
    if (body.name !== want.name.value || !(v >= a.intensity && v <= a.sent))
      lost.push(`${id}: intensity ${v}, acknowledged ${a.intensity}`);
  }
  return lost;
}

async function main(): Promise<void> {
  const dataDir = freshDataDir();
  const acked = new Map<string, Acked>();
  const counts = { posts: 0, patches: 0 };
  const restarts: number[] = [];
  let srv: StartedServer | undefined;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      srv = await startServer({ dataDir });
      if (round > 0) restarts.push(srv.healthMs);
      let stopped = false;
      const before = counts.posts;
      const writers = Array.from({ length: WRITERS }, (_, w) =>
        writer(srv!.child.url, (round * WRITERS + w) * 100_000, acked, counts, () => stopped),
      );
      while (counts.posts - before < 20) await sleep(20);
      await sleep(500 + Math.random() * 3000);
      srv.child.proc.kill("SIGKILL");
      await new Promise((r) => srv!.child.proc.once("exit", r));
      stopped = true;
      await Promise.all(writers);
      say(
        `  round ${round + 1}: killed; ${counts.posts} POST and ${counts.patches} PATCH acknowledged so far`,
      );
    }
    srv = await startServer({ dataDir });
    restarts.push(srv.healthMs);
    const lost = await lostWrites(srv.child.url, acked);
    for (const l of lost.slice(0, 10)) say(`  lost: ${l}`);
    const rows: Row[] = [
      info(
        "kill -9",
        "acknowledged writes",
        counts.posts + counts.patches,
        "",
        `${counts.posts} POST, ${counts.patches} PATCH, ${WRITERS} writers, ${ROUNDS} kills`,
      ),
      below(
        "kill -9",
        "acknowledged writes lost",
        lost.length,
        "",
        1,
        `each of ${acked.size} entities read back`,
      ),
      info("kill -9", "restart to /health, slowest", Math.max(...restarts) / 1000, "s"),
    ];
    const file = writeResults(
      { crash: { counts, entities: acked.size, lost, restarts, machine: machineFacts() }, rows },
      "crash-",
    );
    say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
  } finally {
    srv?.child.proc.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
