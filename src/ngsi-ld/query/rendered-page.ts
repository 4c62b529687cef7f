import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { renderedJson, renderOptionsKey } from "../render/rendered-json";
import type { RenderOptions } from "../render/render-options";
import { pageEntities, type QueryPageIds, type QuerySources } from "./entity-query";
import type { RenderedEntityCache } from "./rendered-entity-cache";

/**
 * The JSON texts (UTF-8) of a query page's entities in the page's order (ETSI GS CIM 009 v1.8 §5.7.2, §4.5
 * representations), from `cache` where it holds them; the others are read (view cache, store), rendered
 * and remembered. `generation` is the cache's {@link RenderedEntityCache.generation} read before the
 * query started, so nothing read before a commit is remembered after it. Entities deleted meanwhile are
 * left out; an entity that renders as `{}` (pick/omit/datasetId leave no member, §4.21) is left out.
 */
export async function pageTexts(
  src: QuerySources,
  cache: RenderedEntityCache,
  tenant: string,
  ctx: CompiledContext,
  page: QueryPageIds,
  opts: RenderOptions,
  generation: number,
): Promise<Buffer[]> {
  const variant = cache.variant(ctx, renderOptionsKey(opts));
  const texts = page.ids.map((id) => cache.get(tenant, id, variant));
  const missing = page.ids.filter((_, i) => texts[i] === undefined);
  if (missing.length > 0) {
    const entities = await pageEntities(src, tenant, ctx, { ...page, ids: missing });
    const byId = new Map(entities.map((e) => [e.id, e]));
    page.ids.forEach((id, i) => {
      const e = texts[i] === undefined ? byId.get(id) : undefined;
      if (!e) return;
      const text = renderedJson(e, opts);
      cache.set(tenant, id, variant, text, generation);
      texts[i] = text;
    });
  }
  return texts.filter((t): t is Buffer => t !== undefined && !isEmptyObject(t));
}

/** True for the text `{}`. */
function isEmptyObject(t: Buffer): boolean {
  return t.length === 2 && t[0] === 0x7b && t[1] === 0x7d;
}
