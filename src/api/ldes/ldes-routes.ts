import type Router from "@koa/router";
import type { Context } from "koa";
import { badRequest, notFound } from "../../errors";
import type { LdesFeed, LdesPage } from "../../ngsi-ld/ldes/ldes-feed";
import type { LdesIris } from "../../ngsi-ld/ldes/ldes-documents";
import { isoTime } from "../../ngsi-ld/temporal/instance-codec";
import { tenantOf } from "../http/tenant";
import { bytesOf, gzipOf, ldesFormat, renderLdes, type LdesBody } from "./ldes-format";
import { PageCache } from "./page-cache";

/** Options of the LDES face. */
export interface LdesRouteOptions {
  /** `max-age` (s) of the documents that change: the stream, the view and the open page. */
  openMaxAgeS: number;
  /** Bytes of rendered closed pages kept (per tenant, page part and format). */
  cacheBytes: number;
  /** The origin (and path prefix) the stream's IRIs start with: the configured public URL, never `Host`. */
  origin: () => string;
  /** Whether a request needs a credential: its answers are then `private`, for the caller's cache only. */
  credentialed: boolean;
  now?: () => number;
}

/**
 * The Linked Data Event Stream face (docs/ldes.md; LDES and TREE specifications, ETSI GR CIM 056) of the
 * tenant in `NGSILD-Tenant`: `/ldes` the event stream, `/ldes/view` its view's root node,
 * `/ldes/pages/{start}` a time page and `/ldes/pages/{start}/{n}` its n-th part. Turtle, N-Triples or
 * JSON-LD by `Accept`; strong ETags and `If-None-Match`; closed pages `immutable`, the rest cached for
 * `openMaxAgeS`; `private` when a credential is needed.
 */
export function registerLdesRoutes(router: Router, feed: LdesFeed, opts: LdesRouteOptions): void {
  const now = opts.now ?? Date.now;
  const closedPages = new PageCache(opts.cacheBytes);
  // a page being rendered: the requests that want it meanwhile wait for the same render
  const rendering = new Map<string, Promise<{ page: LdesPage; body: LdesBody } | undefined>>();
  feed.onEdit(() => closedPages.clear());
  const scope = opts.credentialed ? "private" : "public";
  const immutable = `${scope}, max-age=31536000, immutable`;
  const shortLived = `${scope}, max-age=${opts.openMaxAgeS}`;
  // the answer differs by these request headers; with credentials, also by who asks
  const vary = `Accept, Accept-Encoding, NGSILD-Tenant${opts.credentialed ? ", Authorization, X-API-Key" : ""}`;

  // Pages are large and repetitive N-Triples, which gzip makes much smaller (docs/ldes.md); the gzip form
  // is its own representation, with its own strong ETag (RFC 9110 §8.8.3).
  const send = async (ctx: Context, b: LdesBody, cacheControl: string, key?: string): Promise<void> => {
    const gzip = ctx.acceptsEncodings("gzip", "identity") === "gzip";
    ctx.status = 200;
    ctx.set("Cache-Control", cacheControl);
    ctx.set("Vary", vary);
    ctx.set("ETag", gzip ? `${b.etag.slice(0, -1)}-gzip"` : b.etag);
    ctx.type = `${b.mediaType}; charset=utf-8`;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (!gzip) {
      ctx.body = b.body;
      return;
    }
    const before = bytesOf(b);
    ctx.set("Content-Encoding", "gzip");
    ctx.body = await gzipOf(b);
    if (key) closedPages.grew(key, before);
  };

  const irisOf = (): LdesIris => {
    const origin = opts.origin();
    return {
      stream: `${origin}/ldes`,
      view: `${origin}/ldes/view`,
      page: (start, part = 0) => `${origin}/ldes/pages/${isoTime(start)}${part > 0 ? `/${part + 1}` : ""}`,
    };
  };

  router.get("/ldes", async (ctx) => {
    tenantOf(ctx); // a malformed tenant name is 400 here too
    const body = await renderLdes([feed.stream(irisOf())], ldesFormat(ctx.get("Accept")));
    await send(ctx, body, shortLived);
  });

  router.get("/ldes/view", async (ctx) => {
    const triples = feed.view(tenantOf(ctx), irisOf(), now());
    await send(ctx, await renderLdes([triples], ldesFormat(ctx.get("Accept"))), shortLived);
  });

  const page = async (ctx: Context, part: number): Promise<void> => {
    const tenant = tenantOf(ctx);
    const start = pageStart(ctx.params.start);
    const format = ldesFormat(ctx.get("Accept"));
    const key = `${tenant}\n${start}\n${part}\n${format.mediaType}`;
    const kept = closedPages.get(key);
    if (kept) return send(ctx, kept, immutable, key);
    let render = rendering.get(key);
    if (!render) {
      render = (async () => {
        const p = await feed.page(tenant, irisOf(), start, part, now());
        return p && { page: p, body: await renderLdes(p.pieces, format) };
      })().finally(() => rendering.delete(key));
      rendering.set(key, render);
    }
    const done = await render;
    if (!done) throw notFound(`No page of the event stream at ${ctx.path}`);
    if (done.page.closed) closedPages.set(key, done.body);
    await send(ctx, done.body, done.page.closed ? immutable : shortLived, key);
  };
  router.get("/ldes/pages/:start", (ctx) => page(ctx, 0));
  router.get("/ldes/pages/:start/:part", (ctx) => page(ctx, pagePart(ctx.params.part)));
}

/** The start of a page from its path segment, an xsd:dateTime in UTC as the view links it; 400 otherwise. */
function pageStart(segment: string): number {
  const t = Date.parse(segment);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/.test(segment) || Number.isNaN(t))
    throw badRequest(`Page ${JSON.stringify(segment)} is not a UTC date-time such as 2026-11-21T10:00:00Z`);
  return t;
}

/** The 0-based part from its path segment: `2` is the second part (the first has no segment); 400 otherwise. */
function pagePart(segment: string): number {
  if (!/^[1-9]\d{0,5}$/.test(segment) || segment === "1")
    throw badRequest(`Part ${JSON.stringify(segment)} of a page is not a number from 2 on`);
  return Number(segment) - 1;
}
