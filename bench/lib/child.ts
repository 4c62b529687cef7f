import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import net from "node:net";
import { processTicks } from "./cpu-share";
import { QUIET_WINDOW_MS } from "./settle";

/**
 * A service under test running as a child process: start, wait for readiness, read its memory,
 * stop it gracefully (SIGTERM, then SIGKILL after a grace period).
 */
export interface Child {
  readonly proc: ChildProcess;
  readonly port: number;
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** ms (performance.now) at which the process was spawned. */
  readonly spawnedAt: number;
  /** ms (performance.now) of the first stdout/stderr line matching the readiness pattern, if any. */
  readyLogAt: number | undefined;
  /** Last lines of output (stdout and stderr), for error messages. */
  readonly tail: string[];
}

/** A free TCP port on 127.0.0.1 (asks the kernel for one, then releases it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Options of {@link startChild}. */
export interface StartOptions {
  /** Node arguments before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
  env: Record<string, string>;
  port: number;
  /** Output lines matching this mark readiness (`readyLogAt`). */
  readyPattern?: RegExp;
  /** Also append every output line to this file (e.g. the service's `--trace-gc` lines). */
  logFile?: string;
}

/** Spawns `node <script>` with `env` added to the bench's environment. */
export function startChild(script: string, opts: StartOptions): Child {
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), script], {
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const child: Child = {
    proc,
    port: opts.port,
    url: `http://127.0.0.1:${opts.port}`,
    spawnedAt,
    readyLogAt: undefined,
    tail: [],
  };
  const onData = (buf: Buffer): void => {
    if (opts.logFile) appendFileSync(opts.logFile, buf);
    for (const line of buf.toString("utf8").split("\n")) {
      if (line === "") continue;
      if (child.readyLogAt === undefined && opts.readyPattern?.test(line))
        child.readyLogAt = performance.now();
      child.tail.push(line);
      if (child.tail.length > 40) child.tail.shift();
    }
  };
  proc.stdout?.on("data", onData);
  proc.stderr?.on("data", onData);
  return child;
}

/** Polls `url` until it answers 200; returns ms (performance.now) of the first 200. */
export async function waitFor200(child: Child, path: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      throw new Error(
        `${path}: the process exited (${child.proc.exitCode ?? child.proc.signalCode})\n${child.tail.join("\n")}`,
      );
    }
    try {
      const res = await fetch(child.url + path, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now();
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline)
      throw new Error(`${path} not 200 after ${timeoutMs} ms\n${child.tail.join("\n")}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resident set size of a process in bytes (VmRSS of /proc/<pid>/status), or undefined. */
export function rssBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Waits until the process uses less than `cores` over `windowMs` (its background work done; the default
 * window: settle.ts), at most `timeoutMs`; resolves with the ms waited.
 */
export async function waitUntilQuiet(
  pid: number | undefined,
  cores = 0.15,
  windowMs = QUIET_WINDOW_MS,
  timeoutMs = 900_000,
): Promise<number> {
  const t0 = performance.now();
  while (pid !== undefined && performance.now() - t0 < timeoutMs) {
    const before = processTicks(pid);
    await new Promise((r) => setTimeout(r, windowMs));
    // ticks are 1/100 s: cores = ticks / (windowMs / 10)
    if ((processTicks(pid) - before) / (windowMs / 10) < cores) break;
  }
  return performance.now() - t0;
}

/** Peak resident set size (VmHWM) in bytes, or undefined. */
export function peakRssBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Sends SIGTERM and waits for exit; SIGKILL after `graceMs`. Resolves with the exit code/signal. */
export function stopChild(child: Child, graceMs = 30000): Promise<string> {
  const p = child.proc;
  if (p.exitCode !== null || p.signalCode !== null)
    return Promise.resolve(String(p.exitCode ?? p.signalCode));
  return new Promise((resolve) => {
    const timer = setTimeout(() => p.kill("SIGKILL"), graceMs);
    p.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(String(code ?? signal));
    });
    p.kill("SIGTERM");
  });
}
