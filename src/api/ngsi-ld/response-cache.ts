import type { Context } from "koa";
import type { CommitEvent } from "../../store/graph-store";
import { variantsOf } from "../../ngsi-ld/query/variants-of";

/** A rendered response: what GET /entities/{id} sent for one request variant. */
export interface CachedResponse {
  body: string;
  contentType: string;
  link: string | undefined;
}

/**
 * Rendered GET /entities/{entityId} responses (ETSI GS CIM 009 v1.8 §6.5.3.1), per entity and request
 * variant (query string, Accept, Link), so a repeated read skips graph parsing, compaction, rendering
 * and JSON serialisation (docs/design.md "Indexes beside the store, derived from it": a cache kept current by
 * the change feed). Every committed write to an entity drops its responses; a response is kept only if
 * no commit arrived while it was being made ({@link generation}), so a cached body is never older than
 * the last acknowledged write. Bounded: least recently used entities go first.
 */
export class ResponseCache {
  private readonly entities = new Map<string, Map<string, CachedResponse>>();
  private gen = 0;

  constructor(private readonly capacity = 20_000) {}

  /** Changes with every commit and {@link clear}; pass the value read before rendering to {@link set}. */
  get generation(): number {
    return this.gen;
  }

  /** The response cached for `variant` of entity `id`, refreshing the entity's recency. */
  get(tenant: string, id: string, variant: string): CachedResponse | undefined {
    const key = tenant + "\u0000" + id;
    const variants = this.entities.get(key);
    const hit = variants?.get(variant);
    if (variants && hit) {
      this.entities.delete(key);
      this.entities.set(key, variants);
    }
    return hit;
  }

  /** Keeps a rendered response, unless a commit or clear happened since `generation` was read. */
  set(tenant: string, id: string, variant: string, response: CachedResponse, generation: number): void {
    if (generation !== this.gen) return;
    const variants = variantsOf(this.entities, tenant + "\u0000" + id, this.capacity);
    if (variants.size < 16) variants.set(variant, response);
  }

  /** The change-feed listener: drops the responses of every written graph. */
  apply(event: CommitEvent): void {
    this.gen++;
    for (const w of event.writes) this.entities.delete(event.tenant + "\u0000" + w.graph);
  }

  /** Forgets everything (a @context changed, so rendered terms may change). */
  clear(): void {
    this.gen++;
    this.entities.clear();
  }
}

/** The request variant: everything besides the tenant and id that the response depends on. */
function variantOf(ctx: Context): string {
  return `${ctx.querystring}\u0000${ctx.get("Accept")}\u0000${ctx.get("Link")}`;
}

/** Answers from `cache` if it holds this request's response; true if it did. */
export function sendCached(ctx: Context, cache: ResponseCache, tenant: string, id: string): boolean {
  const hit = cache.get(tenant, id, variantOf(ctx));
  if (!hit) return false;
  ctx.status = 200;
  ctx.body = hit.body;
  ctx.set("Content-Type", hit.contentType);
  if (hit.link !== undefined) ctx.set("Link", hit.link);
  return true;
}

/**
 * Serialises the JSON body a handler has set (sendNgsi) once, sends that text, and keeps it in `cache`
 * for this request's variant if no commit happened since `generation`.
 */
export function remember(
  ctx: Context,
  cache: ResponseCache,
  tenant: string,
  id: string,
  generation: number,
): void {
  const body = JSON.stringify(ctx.body);
  ctx.body = body;
  const link = ctx.response.get("Link");
  const response = {
    body,
    contentType: ctx.response.get("Content-Type"),
    link: Array.isArray(link) ? link.join(", ") : link || undefined,
  };
  cache.set(tenant, id, variantOf(ctx), response, generation);
}
