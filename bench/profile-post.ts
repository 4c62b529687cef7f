import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stopChild } from "./lib/child";
import { printProfiles } from "./lib/cpuprofile";
import { postEntities } from "./lib/http-scenarios";
import { freshDataDir, startServer } from "./lib/server";
import { readSettings } from "./lib/settings";

/**
 * Where the time of POST /entities goes: starts the service with `node --cpu-prof`, runs the POST
 * scenario of `npm run bench` (BENCH_SECONDS), stops the service gracefully and prints the top
 * self-time functions of each thread's profile (main thread and store worker).
 *
 * Run: `npm run build && node dist/bench/profile-post.js` (BENCH_PROFILE_TOP, default 15).
 */
async function main(): Promise<void> {
  const s = readSettings();
  const top = Number(process.env.BENCH_PROFILE_TOP ?? "15");
  const profDir = mkdtempSync(path.join(os.tmpdir(), "citygraph-prof-"));
  const dataDir = freshDataDir();
  const srv = await startServer({ dataDir, nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profDir}`] });
  try {
    const r = await postEntities(srv.child.url, s, { next: 0 });
    process.stdout.write(
      `POST /entities under --cpu-prof: ${Math.round(r.okPerSec)} req/s, non-2xx ${r.non2xx}\n`,
    );
  } finally {
    await stopChild(srv.child, 120000);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const root = path.resolve(__dirname, "..", "..");
  printProfiles(profDir, top, root);
}

main().catch((e: unknown) => {
  process.stderr.write(`profile failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
