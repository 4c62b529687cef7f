import type Router from "@koa/router";
import type { Context } from "koa";
import { AppError, badRequest, notFound } from "../../errors";
import type { DiscoveryIndex } from "../../ngsi-ld/discovery/discovery-index";
import { DiscoveryViews } from "../../ngsi-ld/discovery/discovery-views";
import { negotiate, sendNgsi } from "./negotiate";
import { ngsiState } from "./ngsi-state";
import { param } from "./query-params";

/**
 * Discovery routes (ETSI GS CIM 009 v1.8 §6.25 to §6.28; operations §5.7.5 to §5.7.10):
 * GET /types (EntityTypeList, or EntityType list with details=true), GET /types/{type}
 * (EntityTypeInfo), GET /attributes (AttributeList, or Attribute list with details=true),
 * GET /attributes/{attrId} (Attribute). Names are compacted with the request's @context; a path name
 * may be a term or an expanded IRI; an unknown one is 404 ResourceNotFound. Only the query parameters
 * each resource defines are accepted (`details`, `local`).
 */
export function registerDiscoveryRoutes(router: Router, index: DiscoveryIndex): void {
  const views = async (ctx: Context, allowed: string[]): Promise<DiscoveryViews> => {
    for (const name of Object.keys(ctx.query)) {
      if (!allowed.includes(name)) {
        throw new AppError("InvalidRequest", `Query parameter ${name} is not defined for ${ctx.path}`, {
          parameter: name,
        });
      }
    }
    for (const name of allowed) booleanParam(ctx, name);
    await index.ready();
    const s = ngsiState(ctx);
    return new DiscoveryViews(index, s.tenant, s.ldContext);
  };
  const send = (ctx: Context, body: object) =>
    sendNgsi(ctx, 200, body, negotiate(ctx, ["application/json", "application/ld+json"]));
  const pathIri = (ctx: Context, name: string) => ngsiState(ctx).ldContext.expandTerm(ctx.params[name]);

  router.get("/types", async (ctx) => {
    const v = await views(ctx, ["details", "local"]);
    send(ctx, booleanParam(ctx, "details") ? v.typeDetails() : v.typeList());
  });
  router.get("/types/:type", async (ctx) => {
    const info = (await views(ctx, ["local"])).typeInfo(pathIri(ctx, "type"));
    if (!info) throw notFound(`No entity of type ${ctx.params.type}`, { type: ctx.params.type });
    send(ctx, info);
  });
  router.get("/attributes", async (ctx) => {
    const v = await views(ctx, ["details", "local"]);
    send(ctx, booleanParam(ctx, "details") ? v.attributeDetails() : v.attributeList());
  });
  router.get("/attributes/:attrId", async (ctx) => {
    const attr = (await views(ctx, ["local"])).attribute(pathIri(ctx, "attrId"));
    if (!attr)
      throw notFound(`No entity has attribute ${ctx.params.attrId}`, { attribute: ctx.params.attrId });
    send(ctx, attr);
  });
}

/** A boolean query parameter (`true` / `false`, default false); anything else is 400. */
function booleanParam(ctx: Context, name: string): boolean {
  const v = param(ctx, name);
  if (v === undefined || v === "false") return false;
  if (v === "true") return true;
  throw badRequest(`${name} must be true or false, got ${JSON.stringify(v)}`, { parameter: name, value: v });
}
