import { pathSegment } from "../http/path-segment";
import type Router from "@koa/router";
import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";
import { canonicalizeEntity } from "../../ngsi-ld/model/canonical-names";
import { instancesOf } from "../../ngsi-ld/model/entity";
import { isAbsoluteUri, isValidName } from "../../ngsi-ld/model/uri";
import { normalizeAttribute } from "../../ngsi-ld/model/normalize-attribute";
import { normalizeTemporalEntity } from "../../ngsi-ld/temporal/normalize-temporal";
import type { TemporalService } from "../../ngsi-ld/temporal/temporal-service";
import { objectBody } from "./entity-body";
import { ngsiState } from "./ngsi-state";
import { param, pathAttrId, pathEntityId } from "./query-params";

const st = ngsiState;

/** The attribute IRI of the path's `attrId` (400 when it is not a valid name). */
export function pathAttr(ctx: Context): string {
  const a = pathAttrId(ctx, st(ctx).ldContext);
  if (!isValidName(a)) throw badRequest(`Attribute name ${JSON.stringify(a)} is not valid`, { attrId: a });
  return st(ctx).ldContext.expandTerm(a);
}

/** The instanceId of the path, which must be a URI (400 otherwise). */
function pathInstanceId(ctx: Context): string {
  const v = (ctx.params as Record<string, string>).instanceId;
  if (!isAbsoluteUri(v)) throw badRequest(`instanceId ${JSON.stringify(v)} is not a URI`, { instanceId: v });
  return v;
}

/**
 * The write routes of the temporal API (ETSI GS CIM 009 v1.8 §6.18 to §6.21): POST /temporal/entities
 * (§5.6.11 create or update: 201 or 204), DELETE /temporal/entities/{id} (§5.6.13), POST
 * /temporal/entities/{id}/attrs (§5.6.12), DELETE /temporal/entities/{id}/attrs/{attrId} (§5.6.14, with
 * `datasetId` or `deleteAll`), PATCH and DELETE /temporal/entities/{id}/attrs/{attrId}/{instanceId}
 * (§5.6.15, §5.6.16).
 */
export function registerTemporalRoutes(router: Router, temporal: TemporalService): void {
  const emptyPart = () => {
    throw badRequest("The entity id or attribute name in the path is empty");
  };
  const notAllowed = () => {
    throw new AppError("MethodNotAllowed", "This method needs a complete resource path");
  };
  router.all("/temporal/entities//attrs", emptyPart);
  router.all("/temporal/entities//attrs/:attrId", emptyPart);
  router.all("/temporal/entities//attrs/:attrId/:instanceId", emptyPart);
  router.delete("/temporal/entities/", notAllowed);
  router.delete("/temporal/entities/:entityId/attrs//:instanceId", emptyPart);
  router.patch("/temporal/entities/:entityId/attrs/:attrId/", notAllowed);
  router.patch("/temporal/entities/:entityId/attrs//:instanceId", notAllowed);

  router.post("/temporal/entities", async (ctx) => {
    const s = st(ctx);
    const e = canonicalizeEntity(normalizeTemporalEntity(objectBody(ctx), "entity"), s.ldContext);
    const location = `/ngsi-ld/v1/temporal/entities/${pathSegment(e.id)}`;
    const created = await temporal.upsert(s.tenant, e, s.ldContext);
    ctx.status = created ? 201 : 204;
    if (created) ctx.set("Location", location);
    ctx.body = "";
  });

  router.delete("/temporal/entities/:entityId", async (ctx) => {
    await temporal.deleteEntity(st(ctx).tenant, pathEntityId(ctx));
    ctx.status = 204;
  });

  router.post("/temporal/entities/:entityId/attrs", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const raw = objectBody(ctx);
    const e = canonicalizeEntity(normalizeTemporalEntity(raw, "fragment"), s.ldContext);
    if (e.id !== "" && e.id !== id) throw badRequest("The id in the body differs from the id in the path");
    await temporal.append(s.tenant, id, e, s.ldContext);
    ctx.status = 204;
  });

  router.delete("/temporal/entities/:entityId/attrs/:attrId", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const all = param(ctx, "deleteAll") === "true";
    await temporal.deleteAttribute(s.tenant, id, pathAttr(ctx), param(ctx, "datasetId"), all);
    ctx.status = 204;
  });

  router.patch("/temporal/entities/:entityId/attrs/:attrId/:instanceId", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const attr = pathAttr(ctx);
    const instanceId = pathInstanceId(ctx);
    const raw = objectBody(ctx);
    // the body is the instance itself (§6.21.3.1), or a fragment naming the attribute
    const name = Object.keys(raw).find((k) => s.ldContext.expandTerm(k) === attr);
    // a fragment changes this one attribute: another one named beside it would not be stored
    const others = Object.keys(raw).filter((k) => name !== undefined && k !== name && k !== "@context");
    if (others.length) {
      throw badRequest(`The body names attributes besides ${name}: ${others.join(", ")}`, { others });
    }
    const list = name === undefined ? normalizeAttribute(attr, raw) : normalizeAttribute(name, raw[name]);
    if (list.length !== 1) throw badRequest("The body must hold exactly one instance", { attr });
    const key = s.ldContext.compactIri(attr);
    const inst = instancesOf(canonicalizeEntity({ id, type: [], [key]: list[0] }, s.ldContext), key)[0];
    await temporal.modifyInstance(s.tenant, id, attr, instanceId, inst, s.ldContext);
    ctx.status = 204;
  });

  router.delete("/temporal/entities/:entityId/attrs/:attrId/:instanceId", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const instanceId = pathInstanceId(ctx);
    await temporal.deleteInstance(s.tenant, id, pathAttr(ctx), instanceId);
    ctx.status = 204;
  });
}
