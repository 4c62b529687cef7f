import type { Context, Next } from "koa";
import { AppError } from "../../errors";
import type { Distributor, Forwarding } from "../../ngsi-ld/federation/distributor";
import type { Operation } from "../../ngsi-ld/federation/registration";
import type { CompiledRegistration } from "../../ngsi-ld/federation/registration-match";
import { attributeNamesOf, splitWrite, writeFilter, writersOf } from "../../ngsi-ld/federation/split-write";
import { isAbsoluteUri } from "../../ngsi-ld/model/uri";
import type { EntityFilter } from "../../ngsi-ld/query/query-filter";
import type { TypeExpr } from "../../ngsi-ld/query/type-expression";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { ngsiState } from "./ngsi-state";
import { listParam } from "./query-params";
import { localPart, localProblemOf, sourceErrorOf } from "./source-errors";

/** The batch operations (§6.14 to §6.18, §6.31) and the registration operation of each (§4.3.6.2). */
export const BATCH_OPERATIONS: Record<string, Operation> = {
  create: "createBatch",
  upsert: "upsertBatch",
  update: "updateBatch",
  delete: "deleteBatch",
  merge: "mergeBatch",
};

/** What a batch needs besides the distributor. */
export interface BatchFederationDeps {
  dist: Distributor;
  typesOf(tenant: string, id: string): string[] | undefined;
  /** Compiles the @context an entity of an application/ld+json batch carries. */
  compile(value: unknown, tenant: string): Promise<CompiledContext>;
}

type Entry = { entityId: string; registrationId?: string; error: Record<string, unknown> };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Distributed batch operations (ETSI GS CIM 009 v1.8 §4.3.6.2, §4.3.6.3): each element of the batch is
 * divided as a single entity write would be (splitWrite), every source gets one batch request with its
 * parts of all the elements, the local store the rest. The answer is the one of the local batch when
 * nothing failed (201 with the ids for create, 201 or 204 for upsert, 204 otherwise), else 207 with a
 * BatchOperationResult whose errors name the failed source.
 */
export async function federatedBatch(
  ctx: Context,
  next: Next,
  kind: string,
  deps: BatchFederationDeps,
  fwd: Forwarding,
): Promise<void> {
  const s = ngsiState(ctx);
  const op = BATCH_OPERATIONS[kind];
  const items = s.body;
  if (!Array.isArray(items) || items.length === 0) return next();
  const toSources = new Map<CompiledRegistration, { ids: string[]; bodies: unknown[] }>();
  const local: unknown[] = [];
  const localIds: string[] = [];
  const order: string[] = [];
  for (const item of items) {
    const entity = isRecord(item) ? item : undefined;
    const id = kind === "delete" ? item : entity?.id;
    if (typeof id !== "string" || !isAbsoluteUri(id) || (kind !== "delete" && !entity)) {
      local.push(item); // the local batch reports the bad element
      continue;
    }
    order.push(id);
    const ldc = await entityContext(s, entity, deps);
    const expand = (t: string) => ldc.expandTerm(t);
    const types =
      entity?.type !== undefined
        ? (Array.isArray(entity.type) ? entity.type : [entity.type]).map((t) => expand(String(t)))
        : deps.typesOf(s.tenant, id);
    const crs = writersOf(
      deps.dist.matching(s.tenant, writeFilter(id, types, attributeNamesOf(entity), expand), op),
    );
    const split = splitWrite(crs, entity, expand, { creates: kind === "create" || kind === "upsert" });
    for (const { cr, body } of split.parts) {
      const bucket = toSources.get(cr) ?? { ids: [], bodies: [] };
      bucket.ids.push(id);
      bucket.bodies.push(kind === "delete" ? id : body);
      toSources.set(cr, bucket);
    }
    if (split.localHasWork) {
      local.push(kind === "delete" ? id : split.localBody);
      localIds.push(id);
    }
  }
  if (toSources.size === 0) return next();
  const sends = [...toSources].map(async ([cr, { ids, bodies }]) => {
    const failures = await deps.dist.write(
      [cr],
      {
        method: "POST",
        path: ctx.path.slice("/ngsi-ld/v1".length),
        query: ctx.querystring,
        body: JSON.stringify(bodies),
        contentType: s.bodyType,
      },
      fwd,
    );
    return failures.flatMap((f): Entry[] => {
      const listed = f.status === 207 ? f.problem?.errors : undefined;
      if (!Array.isArray(listed)) return ids.map((entityId) => ({ entityId, ...sourceErrorOf(f) }));
      // the source's own BatchOperationResult: its errors, each naming the registration
      return listed.filter(isRecord).map((e) => ({
        entityId: String(e.entityId),
        registrationId: f.registrationId,
        error: isRecord(e.error) ? e.error : sourceErrorOf(f).error,
      }));
    });
  });
  const errors: Entry[] = [];
  let localCreated: unknown[] | undefined;
  if (local.length) {
    s.body = local;
    try {
      await next();
      const body: unknown = ctx.body;
      if (ctx.status === 201 && Array.isArray(body)) localCreated = body;
      if (ctx.status === 207 && isRecord(body) && Array.isArray(body.errors))
        errors.push(...(body.errors as Entry[]));
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      for (const entityId of localIds) errors.push({ entityId, error: localProblemOf(e) });
    }
  }
  for (const failed of await Promise.all(sends)) errors.push(...failed);
  const failedIds = new Set(errors.map((e) => e.entityId));
  const success = order.filter((id) => !failedIds.has(id));
  ctx.remove("Content-Type");
  if (errors.length) {
    ctx.status = 207;
    ctx.body = { success, errors };
  } else if (kind === "create") {
    ctx.status = 201;
    ctx.body = success;
  } else if (kind === "upsert" && localCreated?.length) {
    ctx.status = 201;
    ctx.body = localCreated;
  } else {
    ctx.status = 204;
    ctx.body = null;
  }
}

/** The @context of one batch element: its own for application/ld+json, the request's otherwise. */
async function entityContext(
  s: ReturnType<typeof ngsiState>,
  entity: Record<string, unknown> | undefined,
  deps: BatchFederationDeps,
): Promise<CompiledContext> {
  if (s.bodyType !== "application/ld+json" || entity?.["@context"] === undefined) return s.ldContext;
  try {
    return await deps.compile(entity["@context"], s.tenant);
  } catch {
    return s.ldContext; // the local batch reports the element's bad @context
  }
}

/**
 * Purge (DELETE /entities, §6.4.3.3) with registered sources: the request goes as it came to every
 * source whose registration names `purgeEntity` for the types (and ids) asked for; the local purge
 * runs unless an exclusive or redirect registration naming no attributes takes it all. 204 when
 * every part did it, else 207 with the failed sources.
 */
export async function federatedPurge(
  ctx: Context,
  next: Next,
  dist: Distributor,
  fwd: Forwarding,
): Promise<void> {
  const s = ngsiState(ctx);
  const types = listParam(ctx, "type")?.map((t) => s.ldContext.expandTerm(t));
  const ids = listParam(ctx, "id");
  const typeExpr: TypeExpr | undefined = types && {
    kind: "or",
    items: types.map((leaf) => ({ kind: "leaf", leaf })),
  };
  const filter: EntityFilter = { selectors: [{ ids, types: typeExpr }] };
  const crs = writersOf(dist.matching(s.tenant, filter, "purgeEntity"));
  if (crs.length === 0) return next();
  const split = splitWrite(crs, undefined, (t) => s.ldContext.expandTerm(t), { creates: false });
  const sends = crs.map((cr) =>
    dist.write([cr], { method: "DELETE", path: "/entities", query: ctx.querystring }, fwd),
  );
  const localError = split.localHasWork ? await localPart(next) : undefined;
  const failures = (await Promise.all(sends)).flat();
  if (localError && failures.length === 0) throw localError;
  if (failures.length === 0) {
    ctx.status = 204;
    ctx.body = null;
    return;
  }
  const errors: Record<string, unknown>[] = failures.map(sourceErrorOf);
  if (localError) errors.push({ error: localProblemOf(localError) });
  ctx.status = 207;
  ctx.body = { errors };
}
