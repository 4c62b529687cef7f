import type { Config } from "../config/config";
import { ResponseCache } from "../api/ngsi-ld/response-cache";
import { RenderedEntityCache } from "../ngsi-ld/query/rendered-entity-cache";
import { compileContext } from "../rdf/contexts/compile-context";
import { ContextLoader } from "../rdf/contexts/loader";
import { outboundAgents } from "../jobs/outbound-agents";
import { outboundFetch } from "../jobs/outbound-fetch";
import type { OutboundPolicy } from "../jobs/outbound-policy";
import { ContextRegistry } from "../rdf/contexts/registry";
import { ContextService } from "../rdf/contexts/service";

/** The JSON-LD contexts (loaded, compiled, hosted) and the caches whose answers depend on them. */
export interface ContextParts {
  registry: ContextRegistry;
  contexts: ContextService;
  /** Rendered NGSI-LD answers by request; cleared when a context changes. */
  responses: ResponseCache;
  /** Rendered entity texts for query answers; cleared when a context changes. */
  rendered: RenderedEntityCache;
  /**
   * The compiled context of an @context value (undefined = core only) for the broker's own use (stored
   * subscriptions, the domain): not counted as a use of the @contexts it names.
   */
  compile(value: unknown): ReturnType<ContextService["compiled"]>;
}

/** Loads the hosted and cached contexts and compiles the core context. */
export async function openContexts(config: Config, outbound: OutboundPolicy): Promise<ContextParts> {
  const loader = new ContextLoader({
    dataDir: config.store.dataDir,
    preloadDir: config.contexts.preloadContextsDir,
    timeoutMs: config.contexts.contextFetchTimeoutMs,
    checkUrl: (u) => outbound.check(u),
    // each redirect hop goes through the policy's agents, which check the address connected to
    fetchFn: (url, init) => outboundFetch(outboundAgents(outbound), url, init),
    maxCached: config.contexts.contextCacheMax,
  });
  const registry = new ContextRegistry({ dataDir: config.store.dataDir, loader });
  const contexts = new ContextService({ loader, compile: compileContext, usage: registry });
  const responses = new ResponseCache();
  const rendered = new RenderedEntityCache(config.tuning.queryCacheBytes);
  registry.onChange(() => {
    contexts.clear();
    responses.clear();
    rendered.clear();
  });
  await registry.init();
  await contexts.init();
  return { registry, contexts, responses, rendered, compile: (v) => contexts.compiled(v, undefined, false) };
}
