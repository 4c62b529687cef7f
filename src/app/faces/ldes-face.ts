import { faceRouter } from "./face-router";
import { renderProblem } from "../../api/http/faces";
import { registerLdesRoutes } from "../../api/ldes/ldes-routes";
import type { Config } from "../../config/config";
import { LdesFeed } from "../../ngsi-ld/ldes/ldes-feed";
import { LdesWindow } from "../../ngsi-ld/ldes/ldes-window";
import type { NgsiLdCore } from "../ngsi-ld";
import type { Storage } from "../storage";
import type { Face } from "./face";

/** A write stamped inside a page is in the history this long after the page's end (at most a page). */
const PAGE_GRACE_MS = 10_000;

/**
 * The Linked Data Event Stream at `/ldes` (docs/ldes.md): each tenant's entity versions from the temporal
 * history, errors as ProblemDetails, the NGSI-LD face's access rules (viewers read).
 */
export function ldesFace(
  config: Config,
  { temporal }: Storage,
  core: NgsiLdCore,
  publicUrl: () => string,
): Face {
  const window = new LdesWindow({
    pageMs: config.ldes.ldesPageMs,
    rawRetentionMs: config.temporal.temporalRawRetentionMs,
    graceMs: Math.min(PAGE_GRACE_MS, config.ldes.ldesPageMs),
  });
  const feed = new LdesFeed(temporal.index, core.coreContext, window, config.ldes.ldesPageMembers);
  temporal.onChange((c) => feed.changed(c));
  const router = faceRouter();
  registerLdesRoutes(router, feed, {
    openMaxAgeS: config.ldes.ldesMaxAgeS,
    cacheBytes: config.ldes.ldesCacheBytes,
    origin: publicUrl,
    credentialed: config.auth.enabled,
  });
  return { mount: { name: "ldes", prefixes: ["/ldes"], renderError: renderProblem }, routers: [router] };
}
