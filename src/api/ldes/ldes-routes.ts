import type Router from "@koa/router";
import type { Context } from "koa";
import { badRequest, notFound } from "../../errors";
import type { LdesFeed } from "../../ngsi-ld/ldes/ldes-feed";
import type { LdesIris } from "../../ngsi-ld/ldes/ldes-documents";
import { isoTime } from "../../ngsi-ld/temporal/instance-codec";
import { ContextLru } from "../../rdf/contexts/lru";
import { serverOrigin } from "../http/server-origin";
import { tenantOf } from "../http/tenant";
import { gzipOf, ldesFormat, renderLdes, type LdesBody } from "./ldes-format";

/** Options of the LDES face. */
export interface LdesRouteOptions {
  /** `max-age` (s) of the documents that change: the stream, the view and the open page. */
  openMaxAgeS: number;
  /** Closed pages kept rendered (per tenant, origin and format). */
  cachedPages?: number;
  now?: () => number;
}

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The Linked Data Event Stream face (docs/ldes.md; LDES and TREE specifications, ETSI GR CIM 056) of the
 * tenant in `NGSILD-Tenant`: `/ldes` the event stream, `/ldes/view` its view's root node,
 * `/ldes/pages/{start}` a time page. Turtle, N-Triples or JSON-LD by `Accept`; strong ETags and
 * `If-None-Match`; closed pages `immutable`, the rest cached for `openMaxAgeS`.
 */
export function registerLdesRoutes(router: Router, feed: LdesFeed, opts: LdesRouteOptions): void {
  const now = opts.now ?? Date.now;
  const closedPages = new ContextLru<LdesBody>(opts.cachedPages ?? 64);
  feed.onEdit(() => closedPages.clear());
  const shortLived = `public, max-age=${opts.openMaxAgeS}`;

  // Pages are large and repetitive N-Triples, which gzip makes much smaller (docs/ldes.md); the gzip form
  // is its own representation, with its own strong ETag (RFC 9110 §8.8.3).
  const send = (ctx: Context, b: LdesBody, cacheControl: string): void => {
    const gzip = ctx.acceptsEncodings("gzip", "identity") === "gzip";
    ctx.status = 200;
    ctx.set("Cache-Control", cacheControl);
    ctx.set("Vary", "Accept, Accept-Encoding, NGSILD-Tenant");
    ctx.set("ETag", gzip ? `${b.etag.slice(0, -1)}-gzip"` : b.etag);
    ctx.type = `${b.mediaType}; charset=utf-8`;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (gzip) ctx.set("Content-Encoding", "gzip");
    ctx.body = gzip ? gzipOf(b) : b.body;
  };

  router.get("/ldes", (ctx) => {
    tenantOf(ctx); // a malformed tenant name is 400 here too
    send(ctx, renderLdes(feed.stream(irisOf(ctx)), ldesFormat(ctx.get("Accept"))), shortLived);
  });

  router.get("/ldes/view", (ctx) => {
    const triples = feed.view(tenantOf(ctx), irisOf(ctx), now());
    send(ctx, renderLdes(triples, ldesFormat(ctx.get("Accept"))), shortLived);
  });

  router.get("/ldes/pages/:start", (ctx) => {
    const tenant = tenantOf(ctx);
    const start = pageStart(ctx.params.start);
    const format = ldesFormat(ctx.get("Accept"));
    const iris = irisOf(ctx);
    const key = `${tenant}\n${iris.stream}\n${start}\n${format.mediaType}`;
    const kept = closedPages.get(key);
    if (kept) return send(ctx, kept, IMMUTABLE);
    const page = feed.page(tenant, iris, start, now());
    if (!page) throw notFound(`No page of the event stream starts at ${ctx.params.start}`);
    const body = renderLdes(page.triples, format);
    if (page.closed) closedPages.set(key, body);
    send(ctx, body, page.closed ? IMMUTABLE : shortLived);
  });
}

/** The IRIs of the stream as the client addressed the service. */
function irisOf(ctx: Context): LdesIris {
  const origin = serverOrigin(ctx);
  return {
    stream: `${origin}/ldes`,
    view: `${origin}/ldes/view`,
    page: (start) => `${origin}/ldes/pages/${isoTime(start)}`,
  };
}

/** The start of a page from its path segment, an xsd:dateTime in UTC as the view links it; 400 otherwise. */
function pageStart(segment: string): number {
  const t = Date.parse(segment);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/.test(segment) || Number.isNaN(t))
    throw badRequest(`Page ${JSON.stringify(segment)} is not a UTC date-time such as 2026-11-21T10:00:00Z`);
  return t;
}
