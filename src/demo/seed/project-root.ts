import * as fs from "node:fs";
import * as path from "node:path";

let cached: string | undefined;

/**
 * The project root: the nearest folder at or above this module holding package.json (the code runs
 * from src/ under ts-node and from dist/src/ once compiled, so a fixed "../.." would be wrong).
 */
export function projectRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json"))) return (cached = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
}

/** Absolute path of a file under dataset/. */
export function datasetPath(...parts: string[]): string {
  return path.join(projectRoot(), "dataset", ...parts);
}
