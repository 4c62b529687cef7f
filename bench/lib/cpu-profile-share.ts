import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** A V8 CPU profile as `node --cpu-prof` writes it (the fields read here). */
interface CpuProfile {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[];
  samples: number[];
}

/** How much of a profiled thread's busy time went to code whose script URL matches. */
export interface ProfileShare {
  /** Samples not idle (the `(idle)` node left out). */
  busySamples: number;
  /** Busy samples whose own frame is in a matching script. */
  matchedSamples: number;
  /** matched / busy. */
  share: number;
  /** Matched samples per script (path shortened), largest first. */
  byScript: [string, number][];
}

/**
 * The share of the main thread's busy samples spent in scripts that `matches` accepts, from the profile files
 * `node --cpu-prof --cpu-prof-dir=DIR` wrote into `dir` (the main thread's is the largest). Self time only:
 * what a callee outside the matched scripts costs is not counted.
 */
export function profileShare(dir: string, matches: (url: string) => boolean): ProfileShare {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f));
  if (files.length === 0) throw new Error(`no CPU profile in ${dir}`);
  const main = files.reduce((a, b) => (statSync(a).size >= statSync(b).size ? a : b));
  const profile = JSON.parse(readFileSync(main, "utf8")) as CpuProfile;
  const urlOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame.url || `(${n.callFrame.functionName})`]));
  let busy = 0;
  const matched = new Map<string, number>();
  for (const id of profile.samples) {
    const url = urlOf.get(id) ?? "";
    if (url === "(idle)") continue;
    busy++;
    if (matches(url)) {
      const short = url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, "$1/");
      matched.set(short, (matched.get(short) ?? 0) + 1);
    }
  }
  const matchedSamples = [...matched.values()].reduce((a, b) => a + b, 0);
  return {
    busySamples: busy,
    matchedSamples,
    share: busy === 0 ? 0 : matchedSamples / busy,
    byScript: [...matched.entries()].sort((a, b) => b[1] - a[1]),
  };
}
