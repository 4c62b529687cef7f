import type Router from "@koa/router";
import type { Context } from "koa";
import { badRequest, toAppError } from "../../errors";
import type { BatchItem, BatchMode, BatchOutcome, BatchService } from "../../ngsi-ld/entities/batch-service";
import type { EntityService } from "../../ngsi-ld/entities/entity-service";
import { isAbsoluteUri } from "../../ngsi-ld/model/uri";
import { entityIdOf, isObject } from "../../ngsi-ld/model/normalize-entity";
import { problemDetails } from "../http/problem-details";
import { entityFromBody } from "./entity-body";
import { ngsiState, ContextProvider } from "./ngsi-state";
import { listParam, optionsParam, param } from "./query-params";
import { canonicalName } from "../../ngsi-ld/model/canonical-names";
import { parseQ } from "../../ngsi-ld/query/q/q-parser";
import { resolveQ } from "../../ngsi-ld/query/q/q-evaluate";

const st = ngsiState;

/** The BatchOperationResult body (ETSI GS CIM 009 §5.2.16). */
function resultBody(o: BatchOutcome, success: string[]) {
  return {
    success,
    errors: o.errors.map((e) => ({ entityId: e.entityId, error: problemDetails(e.error) })),
  };
}

function arrayBody(ctx: Context): unknown[] {
  const body = st(ctx).body;
  if (!Array.isArray(body)) throw badRequest("The body of a batch operation must be a JSON array");
  if (body.length === 0) throw badRequest("The batch is empty");
  return body;
}

/**
 * Validates every element of a batch body; good ones become items (each with the context it carries
 * for application/ld+json, else the request's), bad ones become per-entity errors.
 */
async function itemsOf(ctx: Context, contexts: ContextProvider, outcome: BatchOutcome): Promise<BatchItem[]> {
  const s = st(ctx);
  const items: BatchItem[] = [];
  for (const raw of arrayBody(ctx)) {
    const id = entityIdOf(raw) ?? "";
    try {
      if (!isObject(raw)) throw badRequest("A batch element must be an entity object");
      const { "@context": c, ...rest } = raw;
      const ld = s.bodyType === "application/ld+json";
      if (ld && c === undefined) throw badRequest("With application/ld+json each entity needs its @context");
      if (!ld && c !== undefined) throw badRequest("With application/json an entity must not carry @context");
      const ldc = ld ? await contexts.compiled(c) : s.ldContext;
      items.push({ entity: entityFromBody(rest, "entity", ldc), ctx: ldc });
    } catch (err) {
      outcome.errors.push({ entityId: id, error: toAppError(err) });
    }
  }
  return items;
}

const newOutcome = (): BatchOutcome => ({ created: [], updated: [], errors: [] });

/**
 * Batch entity operations (ETSI GS CIM 009 v1.8 §6.14 to §6.18, §6.31): create, upsert, update,
 * delete, merge; and purge of entities by type (DELETE /entities, §6.4.3.3 in v1.8).
 */
export function registerBatchRoutes(
  router: Router,
  batch: BatchService,
  entities: EntityService,
  contexts: ContextProvider,
): void {
  const run = async (ctx: Context, mode: BatchMode) => {
    const outcome = newOutcome();
    const items = await itemsOf(ctx, contexts, outcome);
    if (items.length) await batch.write(st(ctx).tenant, mode, items, outcome);
    return outcome;
  };

  router.post("/entityOperations/create", async (ctx) => {
    const o = await run(ctx, "create");
    if (o.errors.length === 0) {
      ctx.status = 201;
      ctx.body = o.created;
    } else {
      ctx.status = 207;
      ctx.body = resultBody(o, o.created);
    }
  });

  router.post("/entityOperations/upsert", async (ctx) => {
    const opts = optionsParam(ctx);
    if (opts.has("update") && opts.has("replace"))
      throw badRequest("options update and replace exclude each other");
    const o = await run(ctx, opts.has("update") ? "upsert-update" : "upsert-replace");
    if (o.errors.length) {
      ctx.status = 207;
      ctx.body = resultBody(o, [...o.created, ...o.updated]);
    } else if (o.created.length) {
      ctx.status = 201;
      ctx.body = o.created;
    } else ctx.status = 204;
  });

  for (const [path, modeOf] of [
    [
      "update",
      (ctx: Context): BatchMode => (optionsParam(ctx).has("noOverwrite") ? "update-noOverwrite" : "update"),
    ],
    ["merge", (): BatchMode => "merge"],
  ] as const) {
    router.post(`/entityOperations/${path}`, async (ctx) => {
      const o = await run(ctx, modeOf(ctx));
      sendNoContentOr207(ctx, o);
    });
  }

  router.post("/entityOperations/delete", async (ctx) => {
    const outcome = newOutcome();
    const ids: string[] = [];
    for (const raw of arrayBody(ctx)) {
      if (isAbsoluteUri(raw)) ids.push(raw);
      else outcome.errors.push({ entityId: String(raw), error: badRequest("Not an entity id (a URI)") });
    }
    if (ids.length) await batch.delete(st(ctx).tenant, ids, st(ctx).ldContext, outcome);
    sendNoContentOr207(ctx, outcome);
  });

  router.delete("/entities", async (ctx) => {
    const s = st(ctx);
    const types = listParam(ctx, "type");
    const ids = listParam(ctx, "id");
    const keep = listParam(ctx, "keep");
    const drop = listParam(ctx, "drop");
    const local = param(ctx, "local") === "true";
    if (keep && drop) throw badRequest("keep and drop exclude each other", { parameter: "keep" });
    const q = param(ctx, "q");
    if (!types && !ids && !local && q === undefined) {
      throw badRequest("Purging entities needs type, id, q or local=true", { parameter: "type" });
    }
    const canon = (l?: string[]) => l?.map((n) => canonicalName(s.ldContext, n));
    await entities.purge(
      s.tenant,
      {
        types: types?.map((t) => s.ldContext.expandTerm(t)),
        ids,
        keep: canon(keep),
        drop: canon(drop),
        q: q === undefined ? undefined : resolveQ(parseQ(q), s.ldContext),
      },
      s.ldContext,
    );
    ctx.status = 204;
  });
}

function sendNoContentOr207(ctx: Context, o: BatchOutcome): void {
  if (o.errors.length === 0) ctx.status = 204;
  else {
    ctx.status = 207;
    ctx.body = resultBody(o, [...o.created, ...o.updated]);
  }
}
