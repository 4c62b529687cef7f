import fs from "node:fs/promises";
import path from "node:path";
import { isJsonObject } from "./document";
import type { StoredContext } from "./info";

const ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Persistence of Hosted and ImplicitlyCreated @contexts (ETSI GS CIM 009 §5.13.2): one file
 * `<localId>.json` per entry in `${dataDir}/hosted-contexts/`, written atomically (temp + rename),
 * so they survive a restart.
 */
export class ContextRegistryStore {
  constructor(readonly dir: string) {}

  /** Every stored entry; unreadable or foreign files are skipped and returned as `skipped`. */
  async loadAll(): Promise<{ entries: StoredContext[]; skipped: string[] }> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return { entries: [], skipped: [] };
    }
    const entries: StoredContext[] = [];
    const skipped: string[] = [];
    for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
      try {
        const rec: unknown = JSON.parse(await fs.readFile(path.join(this.dir, name), "utf8"));
        if (isStored(rec) && `${rec.localId}.json` === name) entries.push(rec);
        else skipped.push(name);
      } catch {
        skipped.push(name);
      }
    }
    return { entries, skipped };
  }

  /** Writes one entry. */
  async save(entry: StoredContext): Promise<void> {
    if (!ID.test(entry.localId)) throw new Error(`bad localId ${entry.localId}`);
    await fs.mkdir(this.dir, { recursive: true });
    const target = path.join(this.dir, `${entry.localId}.json`);
    const tmp = `${target}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(entry));
    await fs.rename(tmp, target);
  }

  /** Removes one entry. */
  async remove(localId: string): Promise<void> {
    if (!ID.test(localId)) return;
    await fs.rm(path.join(this.dir, `${localId}.json`), { force: true });
  }
}

function isStored(v: unknown): v is StoredContext {
  return (
    isJsonObject(v) &&
    typeof v.localId === "string" &&
    ID.test(v.localId) &&
    (v.kind === "Hosted" || v.kind === "ImplicitlyCreated") &&
    typeof v.tenant === "string" &&
    typeof v.createdAt === "string" &&
    isJsonObject(v.document) &&
    "@context" in v.document
  );
}
