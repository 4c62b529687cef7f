import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { ContextDocument } from "./document";
import { isJsonObject } from "./document";

/** sha256 hex of a URL: the file name of its cache entry. */
export function urlDigest(url: string): string {
  return createHash("sha256").update(url).digest("hex");
}

/**
 * Disk cache of downloaded remote @contexts (docs/design.md "JSON-LD contexts": "remote ones fetched
 * once, cached on disk"): one file `<sha256(url)>.json` per URL holding `{url, fetchedAt, document}`.
 * The URL is recorded so a hash collision or a foreign file is never served for another URL.
 * Writes go to a temporary file first and are renamed, so a crash never leaves half a file.
 */
export class ContextDiskCache {
  /** @param maxFiles entries kept; past it the oldest files go (files of earlier runs included). */
  constructor(
    readonly dir: string,
    private readonly maxFiles = Infinity,
  ) {}

  private file(url: string): string {
    return path.join(this.dir, `${urlDigest(url)}.json`);
  }

  /** The cached document of `url`, or undefined (missing, unreadable or for another URL). */
  async get(url: string): Promise<ContextDocument | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.file(url), "utf8");
    } catch {
      return undefined;
    }
    try {
      const entry: unknown = JSON.parse(text);
      if (!isJsonObject(entry) || entry.url !== url || !isJsonObject(entry.document)) return undefined;
      if (!("@context" in entry.document)) return undefined;
      return entry.document as ContextDocument;
    } catch {
      return undefined;
    }
  }

  /** Stores `document` for `url`. */
  async put(url: string, document: ContextDocument): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const target = this.file(url);
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, JSON.stringify({ url, fetchedAt: new Date().toISOString(), document }));
    await fs.rename(tmp, target);
    if (Number.isFinite(this.maxFiles)) await this.trim();
  }

  /** Deletes the oldest entries past `maxFiles`. */
  private async trim(): Promise<void> {
    const names = (await fs.readdir(this.dir)).filter((n) => n.endsWith(".json"));
    if (names.length <= this.maxFiles) return;
    const aged = await Promise.all(
      names.map(async (n) => ({
        n,
        t: (await fs.stat(path.join(this.dir, n)).catch(() => undefined))?.mtimeMs ?? 0,
      })),
    );
    aged.sort((a, b) => a.t - b.t);
    for (const { n } of aged.slice(0, aged.length - this.maxFiles)) {
      await fs.rm(path.join(this.dir, n), { force: true });
    }
  }

  /** Removes the entry of `url`, if any. */
  async delete(url: string): Promise<void> {
    await fs.rm(this.file(url), { force: true });
  }
}
