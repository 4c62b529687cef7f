import type { Context, Next } from "koa";
import { AppError, badRequest } from "../../errors";
import { parseJson, readBody } from "../http/read-body";
import { tenantOf } from "../http/tenant";
import { checkKnownParams } from "./known-params";
import { type NgsiState, ngsiState, ContextProvider } from "./ngsi-state";

const BODY_TYPES = new Set(["application/json", "application/ld+json", "application/merge-patch+json"]);

/** Paths whose bodies are context documents themselves, not entities (§5.13). */
const CONTEXT_DOC_PATH = /\/jsonldContexts(\/|$)/;

/**
 * Middleware of the NGSI-LD face (ETSI GS CIM 009 v1.8 §6.3): tenant header, body media type (415),
 * size (413) and JSON syntax (400), and the @context in effect: from the body for
 * application/ld+json, from the Link header otherwise (§6.3.5), compiled once and cached.
 */
export function ngsiRequest(contexts: ContextProvider, maxBodyBytes: number) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const tenantHeader = tenantOf(ctx);
    checkKnownParams(ctx);
    const state = ngsiState(ctx);
    state.tenant = tenantHeader;
    const link = ctx.get("Link");
    let contextValue: unknown = link ? contexts.parseContextLink(link) : undefined;
    const hasBody = ["POST", "PATCH", "PUT"].includes(ctx.method) && (ctx.request.length ?? 0) !== 0;
    if (hasBody || (["POST", "PATCH", "PUT"].includes(ctx.method) && ctx.get("Transfer-Encoding"))) {
      const type = (ctx.get("Content-Type").split(";")[0] || "").trim().toLowerCase();
      if (!BODY_TYPES.has(type)) {
        throw new AppError("UnsupportedMediaType", `Content-Type ${type || "(none)"} is not supported`);
      }
      state.bodyType = type as NgsiState["bodyType"];
      state.body = parseJson(await readBody(ctx, maxBodyBytes));
      if (!CONTEXT_DOC_PATH.test(ctx.path)) contextValue = bodyContext(state, contextValue, link);
    }
    state.contextValue = contextValue;
    state.ldContext = await contexts.compiled(contextValue);
    await next();
  };
}

/** Applies §6.3.5: ld+json carries @context in the body and no Link; json never has @context in the body. */
function bodyContext(state: NgsiState, linkContext: unknown, link: string): unknown {
  const body = state.body;
  const items = Array.isArray(body) ? body : [body];
  const withCtx = items.filter((x) => typeof x === "object" && x !== null && "@context" in x);
  if (state.bodyType === "application/ld+json") {
    if (link && linkContext !== undefined) {
      throw badRequest("A Link header context is not allowed with Content-Type application/ld+json");
    }
    if (Array.isArray(body)) return undefined; // batches: each entity is checked on its own (§6.14)
    if (withCtx.length < items.length) {
      throw badRequest("Content-Type application/ld+json requires an @context in the body");
    }
    return (body as Record<string, unknown>)["@context"];
  }
  if (Array.isArray(body)) return linkContext;
  if (withCtx.length > 0) {
    throw badRequest("Content-Type application/json must not carry @context in the body (use a Link header)");
  }
  return linkContext;
}
