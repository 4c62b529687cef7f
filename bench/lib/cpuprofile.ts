import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Summary of a V8 CPU profile (`node --cpu-prof`, the .cpuprofile JSON of the Chrome DevTools
 * protocol, Profiler.Profile): self time per function, largest first.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of the profile. */
export interface HotFunction {
  name: string;
  /** file:line (path relative to the repository where possible). */
  where: string;
  selfMs: number;
  /** Share of all non-idle samples' time. */
  share: number;
}

/** Where a function lives, coarsely: WebAssembly, GC/program, Node internals, a package, or our code. */
function origin(name: string, where: string): string {
  if (where.startsWith("wasm://")) return "wasm (Oxigraph)";
  if (name.startsWith("(") && where === "") return name;
  if (where === "" || where.startsWith("node:")) return "node internals / native";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where);
  if (m) return `npm ${m[1]}`;
  const d = /^dist\/(src\/[^/]+(?:\/[^/]+)?)\//.exec(where);
  return d ? d[1] : where.split(":")[0];
}

/** Self time per function of the profile in `file`, top `n`, idle time left out. */
export function topFunctions(
  file: string,
  n: number,
  root: string,
): { busyMs: number; idleMs: number; top: HotFunction[]; byOrigin: [string, number][] } {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map<number, ProfileNode>(p.nodes.map((x) => [x.id, x]));
  const self = new Map<string, { name: string; where: string; us: number }>();
  let idle = 0;
  let busy = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i]);
    const dt = p.timeDeltas[i] ?? 0;
    if (node === undefined) continue;
    const f = node.callFrame;
    if (f.functionName === "(idle)") {
      idle += dt;
      continue;
    }
    busy += dt;
    const file = f.url.startsWith("file://") ? path.relative(root, f.url.slice(7)) : f.url;
    const where = file ? `${file}:${f.lineNumber + 1}` : "";
    const key = `${f.functionName}@${where}`;
    const e = self.get(key) ?? { name: f.functionName || "(anonymous)", where, us: 0 };
    e.us += dt;
    self.set(key, e);
  }
  const top = [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, n)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.us / 1000, share: busy ? e.us / busy : 0 }));
  const origins = new Map<string, number>();
  for (const e of self.values()) {
    const o = origin(e.name, e.where);
    origins.set(o, (origins.get(o) ?? 0) + e.us);
  }
  const byOrigin = [...origins.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([o, us]): [string, number] => [o, busy ? us / busy : 0]);
  return { busyMs: busy / 1000, idleMs: idle / 1000, top, byOrigin };
}

/**
 * Prints the hot functions of every `.cpuprofile` in `profDir` (as written by `node --cpu-prof`): each
 * thread's busy and idle time, its CPU by origin, and its `top` functions by self time, with paths
 * relative to `root`. Used by the profile-post and profile-batch benches.
 */
export function printProfiles(profDir: string, top: number, root: string): void {
  for (const f of readdirSync(profDir).filter((x) => x.endsWith(".cpuprofile"))) {
    const t = topFunctions(path.join(profDir, f), top, root);
    process.stdout.write(`\n${f}: busy ${Math.round(t.busyMs)} ms, idle ${Math.round(t.idleMs)} ms\n`);
    const groups = t.byOrigin.slice(0, 8).map(([o, share]) => `${o} ${(share * 100).toFixed(0)}%`);
    process.stdout.write(`  by origin: ${groups.join(", ")}\n`);
    for (const h of t.top) {
      process.stdout.write(
        `  ${(h.share * 100).toFixed(1).padStart(5)}%  ${h.selfMs.toFixed(0).padStart(7)} ms  ${h.name}  ${h.where}\n`,
      );
    }
  }
  process.stdout.write(`\nprofiles kept in ${profDir}\n`);
}
