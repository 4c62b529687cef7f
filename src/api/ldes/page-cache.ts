import { bytesOf, type LdesBody } from "./ldes-format";

/**
 * The rendered closed pages kept for the next client, least recently used first out, bounded by the bytes
 * they hold (a page's gzip form counts once it is made), not by their number: one page may be 1,000 times
 * the size of another. A page larger than the whole budget is not kept.
 */
export class PageCache {
  private readonly pages = new Map<string, LdesBody>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** The page under `key`, marked most recently used. */
  get(key: string): LdesBody | undefined {
    const b = this.pages.get(key);
    if (!b) return undefined;
    this.pages.delete(key);
    this.pages.set(key, b);
    return b;
  }

  /** Keeps `b` under `key`, dropping the least recently used pages past the budget. */
  set(key: string, b: LdesBody): void {
    this.delete(key);
    this.pages.set(key, b);
    this.held += bytesOf(b);
    this.trim();
  }

  /** Counts the bytes `b` gained (its gzip form was made after it was kept). */
  grew(key: string, before: number): void {
    const b = this.pages.get(key);
    if (!b) return;
    this.held += bytesOf(b) - before;
    this.trim();
  }

  clear(): void {
    this.pages.clear();
    this.held = 0;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  private delete(key: string): void {
    const b = this.pages.get(key);
    if (!b) return;
    this.pages.delete(key);
    this.held -= bytesOf(b);
  }

  private trim(): void {
    for (const key of this.pages.keys()) {
      if (this.held <= this.maxBytes) return;
      this.delete(key);
    }
  }
}
