import path from "node:path";
import { parseArgs } from "node:util";
import { adminAuthorization, runTool } from "./backup/download";
import { printListing, printReport } from "./repair/repair-output";
import { replaySetAside } from "./repair/replay-set-aside";
import { readSetAside } from "./repair/set-aside-records";

/**
 * `citygraph repair` (docs/operations.md "Journal damage"), changing nothing unless told to replay:
 * - `npm run repair -- [DATA_DIR]` (default ./data or env DATA_DIR): what the logs of a data directory hold
 *   and where they are damaged, with the records still readable past the damage. Exit code 0 when no file
 *   is damaged, 2 otherwise. A start recovers on its own (the journal to the last record before any
 *   damage, the rest set aside in `.damaged-*` files, logged).
 * - `--list FILE`: each readable record of a set-aside file: its seq, tenant and the graphs it wrote.
 * - `--replay FILE --url URL`: replays those records into the running service (replay-set-aside.ts), with
 *   an admin's credential as `npm run backup` takes it; prints what it could not replay, exit code 2 then.
 */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { list: { type: "string" }, replay: { type: "string" }, url: { type: "string" } },
  });
  if (values.list !== undefined) {
    printListing(values.list, readSetAside(path.resolve(values.list)));
    return;
  }
  if (values.replay !== undefined) {
    if (!values.url) throw new Error("--replay needs --url of the running service");
    const { records } = readSetAside(path.resolve(values.replay));
    const outcomes = await replaySetAside(records, values.url, await adminAuthorization(values.url));
    const missed = outcomes.filter((o) => !o.replayed);
    for (const o of missed)
      process.stdout.write(`NOT replayed: seq ${o.seq} tenant "${o.tenant}" ${o.graph}: ${o.note}\n`);
    process.stdout.write(
      `${outcomes.length - missed.length} of ${outcomes.length} graph writes of ${records.length} records replayed\n`,
    );
    process.exitCode = missed.length ? 2 : 0;
    return;
  }
  const dataDir = path.resolve(positionals[0] ?? process.env.DATA_DIR ?? "./data");
  process.exitCode = printReport(dataDir);
}

runTool(main);
