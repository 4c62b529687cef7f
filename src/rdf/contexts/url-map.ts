import fs from "node:fs";
import path from "node:path";

/**
 * A URL -> local file map read from an `index.json` of the form
 * `{"contexts": {"<url>": "<file relative to the folder>", "<url-prefix>*": "<file>"}}`.
 * A `*` in a key matches any run of characters (`https://host/core*.jsonld`, `https://mirror/*`).
 * Exact URLs win over patterns; among patterns the longest key wins. Used for the
 * project's `contexts/` folder and for the preload folder of air-gapped sites.
 */
export class ContextUrlMap {
  private readonly exact = new Map<string, string>();
  private readonly patterns: Array<[string, RegExp, string]> = [];

  /** Reads `<dir>/index.json`; a missing folder or index gives an empty map. Bad JSON throws. */
  constructor(readonly dir: string) {
    const indexPath = path.join(dir, "index.json");
    if (!fs.existsSync(indexPath)) return;
    const parsed: unknown = JSON.parse(fs.readFileSync(indexPath, "utf8"));
    const contexts = isRecord(parsed) ? parsed.contexts : undefined;
    if (!isRecord(contexts)) throw new Error(`${indexPath}: expected {"contexts": {url: file}}`);
    for (const [url, file] of Object.entries(contexts)) {
      if (typeof file !== "string") throw new Error(`${indexPath}: file for ${url} must be a string`);
      const abs = path.resolve(dir, file);
      if (url.includes("*")) this.patterns.push([url, globToRegExp(url), abs]);
      else this.exact.set(url, abs);
    }
    this.patterns.sort((a, b) => b[0].length - a[0].length);
  }

  /** The absolute path of the file mapped to `url`, if any. */
  lookup(url: string): string | undefined {
    const hit = this.exact.get(url);
    if (hit !== undefined) return hit;
    for (const [, re, file] of this.patterns) if (re.test(url)) return file;
    return undefined;
  }

  /** Number of mappings (exact + patterns). */
  get size(): number {
    return this.exact.size + this.patterns.length;
  }
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
