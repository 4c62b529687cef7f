import type { Context, Next } from "koa";
import { AppError, notFound } from "../../errors";
import type { Distributor, Forwarding } from "../../ngsi-ld/federation/distributor";
import { mergeEntities, type ShownEntity } from "../../ngsi-ld/federation/merge-entities";
import {
  retrievalSources,
  retrieveRemote,
  type RetrievalSources,
} from "../../ngsi-ld/federation/remote-retrieval";
import type { Operation } from "../../ngsi-ld/federation/registration";
import { attributeNamesOf, splitWrite, writeFilter, writersOf } from "../../ngsi-ld/federation/split-write";
import type { CompiledRegistration } from "../../ngsi-ld/federation/registration-match";
import { viaNames } from "../../ngsi-ld/federation/via";
import { isAbsoluteUri } from "../../ngsi-ld/model/uri";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { shownOf, warnOfFailures } from "./federated-answers";
import { BATCH_OPERATIONS, federatedBatch, federatedPurge } from "./federation-batch";
import { federatedBatchQuery, federatedQuery } from "./federation-query";
import { negotiate, sendNgsi } from "./negotiate";
import { errorKindOfStatus, localPart, localProblemOf, sourceErrorOf } from "./source-errors";
import { ngsiState } from "./ngsi-state";
import { param } from "./query-params";

const st = ngsiState;
const API = "/ngsi-ld/v1";

/** Which entity operation a request is (§4.3.6.2 names), with its entity id and attribute. */
interface Route {
  op: Operation;
  id?: string;
  attr?: string;
}

const ENTITY = /^\/entities\/([^/]+)$/;
const ATTRS = /^\/entities\/([^/]+)\/attrs\/?$/;
const BATCH = /^\/ngsi-ld\/v1\/entityOperations\/([a-z]+)$/;
const ATTR = /^\/entities\/([^/]+)\/attrs\/([^/]+)$/;

function routeOf(method: string, path: string): Route | undefined {
  if (!path.startsWith(API)) return undefined;
  const p = path.slice(API.length);
  const dec = (s: string) => decodeURIComponent(s);
  if (p === "/entities" || p === "/entities/") {
    return method === "GET" ? { op: "queryEntity" } : method === "POST" ? { op: "createEntity" } : undefined;
  }
  let m = ENTITY.exec(p);
  if (m) {
    const op = (
      { GET: "retrieveEntity", DELETE: "deleteEntity", PUT: "replaceEntity", PATCH: "mergeEntity" } as const
    )[method as "GET"];
    return op ? { op, id: dec(m[1]) } : undefined;
  }
  m = ATTRS.exec(p);
  if (m) {
    const op = ({ POST: "appendAttrs", PATCH: "updateAttrs" } as const)[method as "POST"];
    return op ? { op, id: dec(m[1]) } : undefined;
  }
  m = ATTR.exec(p);
  if (m) {
    const op = ({ PATCH: "updateAttrs", PUT: "replaceAttrs", DELETE: "deleteAttrs" } as const)[
      method as "PATCH"
    ];
    return op ? { op, id: dec(m[1]), attr: dec(m[2]) } : undefined;
  }
  return undefined;
}

/**
 * Distributed operations at the HTTP face (ETSI GS CIM 009 v1.8 §4.3.6): a request whose `Via` names
 * this broker is a loop (508, §6.3.18); entity retrievals and GET queries are sent to the matching
 * registered sources while the local answer is made, and the answers are merged per registration
 * mode (POST /entityOperations/query too, to registrations naming queryBatch); entity writes go to the sources whose registrations name the operation (exclusive and redirect
 * registrations take their attributes away from the local write). Sources that fail or pass their
 * timeout are reported: `NGSILD-Warning` headers on reads, 207 with the failed sources on writes.
 * Batch operations are divided per element (federatedBatch). `local=true` keeps a request local.
 */
export function federationMiddleware(
  dist: Distributor,
  typesOf: (tenant: string, id: string) => string[] | undefined,
  compile: (value: unknown, tenant: string) => Promise<CompiledContext>,
) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const via = ctx.get("Via") || undefined;
    if (viaNames(via, dist.brokerId)) {
      throw new AppError("LoopDetected", "This request has already passed through this broker (Via)", {
        via,
      });
    }
    if (param(ctx, "local") === "true") return next();
    const fwd: Forwarding = { via, link: ctx.get("Link") || undefined };
    const batch = ctx.method === "POST" ? BATCH.exec(ctx.path) : null;
    if (batch?.[1] === "query") return federatedBatchQuery(ctx, next, dist, fwd);
    if (batch && BATCH_OPERATIONS[batch[1]]) {
      return federatedBatch(ctx, next, batch[1], { dist, typesOf, compile }, fwd);
    }
    if (ctx.method === "DELETE" && /^\/ngsi-ld\/v1\/entities\/?$/.test(ctx.path)) {
      return federatedPurge(ctx, next, dist, fwd);
    }
    const route = routeOf(ctx.method, ctx.path);
    if (!route) return next();
    const s = st(ctx);
    if (route.op === "queryEntity") return federatedQuery(ctx, next, dist, fwd);
    const body = s.body as Record<string, unknown> | undefined;
    const id = route.id ?? (typeof body?.id === "string" ? body.id : undefined);
    if (id === undefined || !isAbsoluteUri(id)) return next(); // the local answer is the 400
    const types =
      route.op === "createEntity" && body?.type !== undefined
        ? (Array.isArray(body.type) ? body.type : [body.type]).map((t) => s.ldContext.expandTerm(String(t)))
        : typesOf(s.tenant, id);
    const names = route.attr ? [route.attr] : attributeNamesOf(body);
    const expand = (t: string) => s.ldContext.expandTerm(t);
    const filter = writeFilter(id, types, route.op === "retrieveEntity" ? [] : names, expand);
    if (route.op === "retrieveEntity") {
      const sources = retrievalSources(dist, s.tenant, filter);
      if (Object.values(sources).every((crs) => crs.length === 0)) return next();
      return retrieve(ctx, next, dist, fwd, sources, id);
    }
    const crs = dist.matching(s.tenant, filter, route.op);
    if (crs.length === 0) return next();
    return write(ctx, next, dist, fwd, crs, route, id);
  };
}

async function retrieve(
  ctx: Context,
  next: Next,
  dist: Distributor,
  fwd: Forwarding,
  sources: RetrievalSources,
  id: string,
): Promise<void> {
  const s = st(ctx);
  const q = new URLSearchParams(ctx.querystring).toString();
  const remote = retrieveRemote(dist, sources, id, q, fwd, s.ldContext);
  let local: ShownEntity[] = [];
  let missing: unknown;
  try {
    await next();
    local = shownOf(ctx.body);
  } catch (e) {
    if (!(e instanceof AppError) || e.kind !== "ResourceNotFound") throw e;
    missing = e;
  }
  const { answers, failures } = await remote;
  const merged = mergeEntities(local, answers);
  if (merged.length === 0) {
    if (failures.length) warnOfFailures(ctx, failures);
    throw missing ?? notFound(`Entity ${id} not found`, { id });
  }
  const type = negotiate(ctx, ["application/json", "application/ld+json"]);
  ctx.remove("Link");
  const { "@context": _c, ...entity } = merged[0];
  sendNgsi(ctx, 200, entity, type);
  warnOfFailures(ctx, failures);
}

async function write(
  ctx: Context,
  next: Next,
  dist: Distributor,
  fwd: Forwarding,
  crs: CompiledRegistration[],
  route: Route,
  id: string,
): Promise<void> {
  const s = st(ctx);
  const writers = writersOf(crs);
  if (writers.length === 0) return next();
  const body = s.body as Record<string, unknown> | undefined;
  const split = splitWrite(writers, body, (t) => s.ldContext.expandTerm(t), {
    attr: route.attr,
    creates: route.op === "createEntity",
  });
  const sends = split.parts.map(({ cr, body: part }) =>
    dist.write(
      [cr],
      {
        method: ctx.method as "GET",
        path: ctx.path.slice(API.length),
        query: ctx.querystring,
        body: part === undefined ? undefined : JSON.stringify(part),
        contentType: s.bodyType,
      },
      fwd,
    ),
  );
  const localHasWork = split.localHasWork;
  if (localHasWork) s.body = split.localBody;
  const localError = localHasWork ? await localPart(next) : undefined;
  const failures = (await Promise.all(sends)).flat();
  // nothing was sent: the local error as it is. When a source was sent the write, a local refusal
  // (an entity only the source holds, one that already exists here) is one failed part of a 207
  if (localError && sends.length === 0) throw localError;
  if (!localHasWork) {
    // the one source refused it: its error as it is (a 207 of the source goes on as a 207)
    const status = failures[0]?.status;
    if (failures.length === writers.length && writers.length === 1 && status !== undefined && status >= 400) {
      throw new AppError(errorKindOfStatus(status), failures[0].detail, {
        registrationId: failures[0].registrationId,
      });
    }
    ctx.status = route.op === "createEntity" ? 201 : 204;
    if (route.op === "createEntity") ctx.set("Location", `${API}/entities/${id}`);
  }
  if (failures.length === 0 && !localError) return;
  // §4.3.6: a part failed: 207 with what failed where (BatchOperationResult-like `errors`)
  const errors: Record<string, unknown>[] = failures.map((f) => ({ entityId: id, ...sourceErrorOf(f) }));
  if (localError) errors.push({ entityId: id, error: localProblemOf(localError) });
  const local = ctx.body && typeof ctx.body === "object" && !Buffer.isBuffer(ctx.body) ? ctx.body : {};
  ctx.status = 207;
  ctx.body = { ...local, errors };
}
