import fs from "node:fs";
import path from "node:path";
import { writeFileDurably } from "../store/journal/journal-files";

/** A job still to run at a clean stop, with the attempts it has had. */
export interface PendingJob<J> {
  job: J;
  attempts: number;
}

/** The file in `dataDir` that keeps queue `name`'s pending jobs from a clean stop to the next start. */
export function pendingJobsFile(dataDir: string, name: string): string {
  return path.join(dataDir, `${name.replace(/[^A-Za-z0-9_.-]/g, "_")}-pending.json`);
}

/** Writes `jobs` to `file` atomically (temp file, fsync, rename); no file when there are none. */
export function writePendingJobs<J>(file: string, jobs: PendingJob<J>[]): void {
  if (jobs.length === 0) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileDurably(file, JSON.stringify({ jobs }));
}

/**
 * The jobs `file` holds, none when there is no file. A file that is not such a list is moved aside to
 * `<file>.damaged` (kept for inspection, never read again) rather than stopping the start.
 */
export function readPendingJobs<J>(file: string): PendingJob<J>[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  try {
    const { jobs } = JSON.parse(text) as { jobs: unknown };
    if (Array.isArray(jobs) && jobs.every(isPending)) return jobs as PendingJob<J>[];
  } catch {
    /* not JSON: moved aside below */
  }
  fs.renameSync(file, `${file}.damaged`);
  return [];
}

/** Removes `file` once its jobs are back in their queue. */
export function removePendingJobs(file: string): void {
  fs.rmSync(file, { force: true });
}

function isPending(p: unknown): boolean {
  const o = p as PendingJob<unknown> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    typeof o.job === "object" &&
    o.job !== null &&
    typeof (o.job as { uri?: unknown }).uri === "string" &&
    Number.isInteger(o.attempts) &&
    o.attempts >= 0
  );
}
