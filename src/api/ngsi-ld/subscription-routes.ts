import { ownerScope, ownerToRecord } from "../http/ownership";
import { pathSegment } from "../http/path-segment";
import type Router from "@koa/router";
import type { Context } from "koa";
import { AppError } from "../../errors";
import type { ContextCompiler, SubscriptionService } from "../../ngsi-ld/subscriptions/subscription-service";
import { subscriptionView } from "../../ngsi-ld/subscriptions/subscription-view";
import type { SubscriptionRecord } from "../../ngsi-ld/subscriptions/subscription";
import { type ImplicitContexts, withImplicitContext } from "./implicit-context";
import { jsonObjectBody } from "./entity-body";
import { negotiate, sendNgsi } from "./negotiate";
import { ngsiState } from "./ngsi-state";
import { optionsParam, pageParams, pathUri } from "./query-params";

const st = ngsiState;

const pathId = (ctx: Context): string => pathUri(ctx, "subscriptionId", "Subscription id");
const bodyOf = (ctx: Context): unknown => jsonObjectBody(ctx, "BadRequestData");

/** How {@link registerSubscriptionRoutes} serves one kind of subscription. */
export interface SubscriptionRouteOptions {
  /** Compiles a subscription's @context for its view. */
  compile: ContextCompiler;
  /** The largest page of a listing. */
  maxLimit: number;
  /** `/subscriptions` (entity subscriptions, the default) or `/csourceSubscriptions`. */
  base?: string;
  /** Hosted contexts for the ImplicitlyCreated @context of a subscription. */
  implicit?: ImplicitContexts;
}

/**
 * Routes of the subscription resources (ETSI GS CIM 009 v1.8 §6.10, §6.11): POST /subscriptions (201 +
 * Location), GET /subscriptions (limit, offset, count, Link rel=next/prev), GET, PATCH (204) and DELETE
 * (204) /subscriptions/{subscriptionId}. With `base` "/csourceSubscriptions" the same routes serve
 * context source registration subscriptions (§6.12, §6.13), which have the same data type (§5.2.12).
 * A subscription belongs to the principal that created it: admins see and change every one, anyone else
 * only their own, and another's id answers 404 as an unknown one would. With `implicit`, a subscription
 * made with an array or object @context gets an ImplicitlyCreated @context as its `jsonldContext`
 * (implicit-context.ts), deleted with it unless another subscription of the tenant names it.
 */
export function registerSubscriptionRoutes(
  router: Router,
  subs: SubscriptionService,
  { compile, maxLimit, base = "/subscriptions", implicit }: SubscriptionRouteOptions,
): void {
  /** Deletes an ImplicitlyCreated @context no subscription of the tenant names any more. */
  const release = async (tenant: string, url: string | undefined) => {
    if (!implicit || url === undefined) return;
    if (subs.list(tenant).some((r) => r.sub.jsonldContext === url)) return;
    await implicit.removeImplicit(tenant, url);
  };

  const view = async (ctx: Context, r: SubscriptionRecord) =>
    subscriptionView(
      r,
      await compile(r.context),
      st(ctx).ldContext,
      optionsParam(ctx).has("sysAttrs"),
      base === "/subscriptions",
    );

  const noId = () => {
    throw new AppError(
      "MethodNotAllowed",
      "This method needs a subscription id: /subscriptions/{subscriptionId}",
    );
  };
  router.patch(`${base}/`, noId);
  router.delete(`${base}/`, noId);

  router.post(base, async (ctx) => {
    const s = st(ctx);
    const made = await withImplicitContext(ctx, implicit, s.tenant, s.contextValue, bodyOf(ctx));
    let id: string;
    try {
      id = await subs.create(s.tenant, made.body, s.contextValue, s.ldContext, ownerToRecord(ctx));
    } catch (e) {
      await release(s.tenant, made.created);
      throw e;
    }
    ctx.status = 201;
    ctx.body = "";
    ctx.set("Location", `/ngsi-ld/v1${base}/${pathSegment(id)}`);
  });

  router.get(base, async (ctx) => {
    const type = negotiate(ctx, ["application/json", "application/ld+json"]);
    const { limit, offset, count } = pageParams(ctx, maxLimit);
    const all = subs.list(st(ctx).tenant, ownerScope(ctx));
    if (count) ctx.set("NGSILD-Results-Count", String(all.length));
    const link = (o: number, rel: string) =>
      `</ngsi-ld/v1${base}?limit=${limit}&offset=${o}>;rel="${rel}";type="application/ld+json"`;
    const links: string[] = [];
    if (limit > 0 && offset > 0) links.push(link(Math.max(0, offset - limit), "prev"));
    if (limit > 0 && all.length > offset + limit) links.push(link(offset + limit, "next"));
    if (links.length) ctx.set("Link", links.join(","));
    const page = all.slice(offset, offset + limit);
    sendNgsi(ctx, 200, await Promise.all(page.map((r) => view(ctx, r))), type);
  });

  router.get(`${base}/:subscriptionId`, async (ctx) => {
    const type = negotiate(ctx, ["application/json", "application/ld+json"]);
    sendNgsi(ctx, 200, await view(ctx, subs.get(st(ctx).tenant, pathId(ctx), ownerScope(ctx))), type);
  });

  router.patch(`${base}/:subscriptionId`, async (ctx) => {
    const s = st(ctx);
    const id = pathId(ctx);
    const current = subs.get(s.tenant, id, ownerScope(ctx)).sub.jsonldContext;
    const made = await withImplicitContext(ctx, implicit, s.tenant, s.contextValue, bodyOf(ctx), current);
    try {
      await subs.update(s.tenant, id, made.body, s.contextValue, s.ldContext, ownerScope(ctx));
    } catch (e) {
      await release(s.tenant, made.created);
      throw e;
    }
    await release(s.tenant, made.replaced);
    ctx.status = 204;
  });

  router.delete(`${base}/:subscriptionId`, async (ctx) => {
    const tenant = st(ctx).tenant;
    const id = pathId(ctx);
    const { jsonldContext } = subs.get(tenant, id, ownerScope(ctx)).sub;
    await subs.delete(tenant, id, ownerScope(ctx));
    await release(tenant, jsonldContext);
    ctx.status = 204;
  });
}
