import fs from "node:fs";
import path from "node:path";
import type { NotificationStats } from "./subscription";

/** One delivery attempt as logged: tenant, subscription id, success, when. */
export type DeliveryLine = [tenant: string, id: string, ok: 0 | 1, at: string];

const FILE = /^deliveries-(\d{12})\.log$/;
const fileName = (gen: number) => `deliveries-${String(gen).padStart(12, "0")}.log`;

/**
 * The delivery attempts of every subscription since their statuses were last written to the graph, one
 * line each, appended as each attempt ends: a kill loses none of the counts (`timesSent`, `timesFailed`)
 * of the deliveries that happened. The statuses in the graph say up to which file (`logGen`) they already
 * count; a start adds the lines of later files. Writing the statuses starts a new file ({@link rotate});
 * once they are durable the older files go ({@link drop}). An append is one write(2) of a short line, kept
 * by the kernel when the process dies (not fsynced: a power cut may lose the last lines); the current file
 * stays open, so an append costs that one write and no open and close (`appendFileSync` took a share of the
 * main thread at thousands of notifications a second: docs/decisions/0018-small-hot-path-costs.md).
 */
export class DeliveryLog {
  private gen: number;
  private file: string;
  private fd: number | undefined;

  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.gen = Math.max(0, ...this.files().map((f) => f.gen)) + 1;
    this.file = path.join(dir, fileName(this.gen));
  }

  /** Every logged attempt with the generation of its file, oldest first; a torn last line is skipped. */
  read(): { gen: number; line: DeliveryLine }[] {
    const out: { gen: number; line: DeliveryLine }[] = [];
    for (const f of this.files()) {
      for (const text of fs.readFileSync(f.path, "utf8").split("\n")) {
        if (!text) continue;
        try {
          const line = JSON.parse(text) as DeliveryLine;
          if (Array.isArray(line) && line.length === 4) out.push({ gen: f.gen, line });
        } catch {
          // a line cut by the kill
        }
      }
    }
    return out;
  }

  /** Logs one attempt. */
  append(tenant: string, id: string, ok: boolean, at: string): void {
    this.fd ??= fs.openSync(this.file, "a");
    fs.writeSync(this.fd, `${JSON.stringify([tenant, id, ok ? 1 : 0, at])}\n`);
  }

  /** Starts a new file; returns the generation of the one closed (every line so far is in it or before). */
  rotate(): number {
    this.close();
    const closed = this.gen;
    this.gen++;
    this.file = path.join(this.dir, fileName(this.gen));
    return closed;
  }

  /** Closes the current file (the next append opens it again). */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  /** Deletes the files of generations up to `gen` (their counts are in the graph now). */
  drop(gen: number): void {
    for (const f of this.files()) if (f.gen <= gen) fs.rmSync(f.path, { force: true });
  }

  private files(): { gen: number; path: string }[] {
    return fs
      .readdirSync(this.dir)
      .map((n) => ({ m: FILE.exec(n), n }))
      .filter((x): x is { m: RegExpExecArray; n: string } => x.m !== null)
      .map((x) => ({ gen: Number(x.m[1]), path: path.join(this.dir, x.n) }))
      .sort((a, b) => a.gen - b.gen);
  }
}

/** Counts one delivery attempt in `stats` (§5.2.14 timesSent, timesFailed, lastNotification, last*). */
export function countDelivery(stats: NotificationStats, ok: boolean, at: string): void {
  stats.lastNotification = at;
  if (ok) {
    stats.timesSent++;
    stats.lastSuccess = at;
  } else {
    stats.timesFailed++;
    stats.lastFailure = at;
  }
}
