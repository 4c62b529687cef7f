import fs from "node:fs";
import path from "node:path";

/**
 * Finds the project root: the nearest folder at or above `startDir` that holds a package.json.
 * Code runs both from `src/` (ts-node, tests) and compiled from `dist/src/rdf/`, so a fixed
 * `../..` would be wrong in one of them. Falls back to the process working directory.
 */
export function findProjectRoot(startDir: string = __dirname): string {
  let dir = path.resolve(startDir);
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

/** The project's own contexts folder (`<root>/contexts`, see docs/design.md "The domain vocabulary"). */
export function projectContextsDir(): string {
  return path.join(findProjectRoot(), "contexts");
}
