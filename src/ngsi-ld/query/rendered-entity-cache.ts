import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { CommitEvent } from "../../store/graph-store";

/** Bytes counted per cached text besides its bytes (map entries, key string, Buffer and ArrayBuffer objects). */
const ENTRY_OVERHEAD = 250;
/** Most representations kept per entity (contexts × render options); more are not remembered. */
const MAX_VARIANTS = 8;

/**
 * The JSON texts (UTF-8, each in a Buffer of its own, outside the JavaScript heap) of entities as query answers list them (ETSI GS CIM 009 v1.8 §5.7.2 with the §4.5
 * representations), per tenant, entity id and representation (the request's @context and render
 * options), so that an entity listed again is neither read from the store, nor decoded, nor rendered
 * (docs/design.md "Indexes beside the store, derived from it"). Bounded by an estimate of the bytes held
 * (least recently used entities out first) and kept current by the change feed: a committed write to
 * an entity drops its texts, and a text made while a commit landed is not remembered
 * ({@link generation}), so a cached text is never older than the last acknowledged write.
 */
export class RenderedEntityCache {
  private readonly map = new Map<string, Map<number, Buffer>>();
  private readonly variants = new WeakMap<CompiledContext, Map<string, number>>();
  private nextVariant = 0;
  private bytes = 0;
  private gen = 0;

  /** @param budgetBytes estimated bytes the texts may take (0 = remember nothing) */
  constructor(private readonly budgetBytes: number) {}

  /** Changes with every commit and {@link clear}; read it before reading the entities to render. */
  get generation(): number {
    return this.gen;
  }

  /** The representation number of entities compacted with `ctx` and rendered with options `optionsKey`. */
  variant(ctx: CompiledContext, optionsKey: string): number {
    let byOptions = this.variants.get(ctx);
    if (!byOptions) this.variants.set(ctx, (byOptions = new Map()));
    let v = byOptions.get(optionsKey);
    if (v === undefined) {
      if (byOptions.size >= 256) byOptions.clear();
      byOptions.set(optionsKey, (v = this.nextVariant++));
    }
    return v;
  }

  /** The text of entity `id` in representation `variant`, refreshing the entity's recency. */
  get(tenant: string, id: string, variant: number): Buffer | undefined {
    const key = tenant + "\u0000" + id;
    const texts = this.map.get(key);
    const hit = texts?.get(variant);
    if (texts && hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, texts);
    }
    return hit;
  }

  /** Remembers a text, unless a commit or {@link clear} happened since `generation` was read. */
  set(tenant: string, id: string, variant: number, text: Buffer, generation: number): void {
    if (generation !== this.gen || this.budgetBytes <= 0) return;
    const key = tenant + "\u0000" + id;
    let texts = this.map.get(key);
    if (!texts) this.map.set(key, (texts = new Map()));
    if (texts.has(variant) || texts.size >= MAX_VARIANTS) return;
    texts.set(variant, text);
    this.bytes += cost(key, text);
    this.evict();
  }

  /** The change-feed listener: every written or dropped graph loses its texts. */
  apply(event: CommitEvent): void {
    this.gen++;
    for (const w of event.writes) this.drop(event.tenant + "\u0000" + w.graph);
  }

  /** Forgets everything (a @context changed, so rendered terms may change). */
  clear(): void {
    this.gen++;
    this.map.clear();
    this.bytes = 0;
  }

  /** Estimated bytes held. */
  get usedBytes(): number {
    return this.bytes;
  }

  /** Entities with at least one text. */
  get size(): number {
    return this.map.size;
  }

  private drop(key: string): void {
    const texts = this.map.get(key);
    if (!texts) return;
    for (const t of texts.values()) this.bytes -= cost(key, t);
    this.map.delete(key);
  }

  private evict(): void {
    while (this.bytes > this.budgetBytes) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) return;
      this.drop(oldest);
    }
  }
}

function cost(key: string, text: Buffer): number {
  return text.length + key.length + ENTRY_OVERHEAD;
}
