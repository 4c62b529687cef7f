import { pathSegment } from "../http/path-segment";
import type Router from "@koa/router";
import type { Context } from "koa";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { AppError, badRequest, notFound } from "../../errors";
import type { AttributeService, UpdateResult } from "../../ngsi-ld/entities/attribute-service";
import type { EntityService } from "../../ngsi-ld/entities/entity-service";
import { canonicalName } from "../../ngsi-ld/model/canonical-names";
import { instancesOf } from "../../ngsi-ld/model/entity";
import { renderEntity } from "../../ngsi-ld/render/render-entity";
import { renderFeature } from "../../ngsi-ld/render/render-geojson";
import { renderJoined } from "../../ngsi-ld/render/linked-entities";
import type { Entity } from "../../ngsi-ld/model/entity";
import { entityFromBody, objectBody } from "./entity-body";
import { negotiate, sendNgsi } from "./negotiate";
import { type NgsiState, ngsiState } from "./ngsi-state";
import { remember, sendCached, type ResponseCache } from "./response-cache";
import { joinParams, optionsParam, param, pathAttrId, pathEntityId, renderOptions } from "./query-params";

const st = ngsiState;

/** 204 when every attribute was changed, else 207 with the UpdateResult (ETSI GS CIM 009 §6.6.3.1, §6.7.3.1). */
function sendUpdateResult(ctx: Context, r: UpdateResult): void {
  if (r.notUpdated.length === 0) ctx.status = 204;
  else {
    const ldc = st(ctx).ldContext;
    const iri = (n: string) => (n === "scope" ? n : ldc.expandTerm(n));
    ctx.status = 207;
    ctx.body = {
      updated: r.updated.map(iri),
      notUpdated: r.notUpdated.map((x) => ({ ...x, attributeName: iri(x.attributeName) })),
    };
  }
}

/**
 * Records the deletion of an attribute of an entity that only the temporal history holds (no current
 * state); resolves false when there is no such entity or attribute there either.
 */
export type HistoryOnlyDeletion = (
  tenant: string,
  id: string,
  name: string,
  ctx: CompiledContext,
  datasetId?: string,
) => Promise<boolean>;

/**
 * Routes of the entity and attribute resources (ETSI GS CIM 009 v1.8 §6.4 to §6.7):
 * POST /entities, GET/PUT/PATCH/DELETE /entities/{entityId}, POST/PATCH /entities/{entityId}/attrs,
 * PATCH/PUT/DELETE /entities/{entityId}/attrs/{attrId}.
 */
export function registerEntityRoutes(
  router: Router,
  entities: EntityService,
  attrs: AttributeService,
  responses?: ResponseCache,
  historyOnlyDeletion?: HistoryOnlyDeletion,
): void {
  const emptyId = () => {
    throw badRequest("The entity id in the path is empty");
  };
  router.put("/entities/", emptyId);
  router.patch("/entities/", emptyId);
  router.all("/entities//attrs", emptyId);
  router.all("/entities//attrs/:attrId", emptyId);
  router.delete("/entities/:entityId/attrs/", () => {
    throw new AppError(
      "MethodNotAllowed",
      "DELETE needs an attribute name: /entities/{entityId}/attrs/{attrId}",
    );
  });

  router.post("/entities", async (ctx) => {
    const s = st(ctx);
    const entity = entityFromBody(objectBody(ctx), "entity", s.ldContext);
    const location = `/ngsi-ld/v1/entities/${pathSegment(entity.id)}`;
    await entities.create(s.tenant, entity, s.ldContext);
    ctx.status = 201;
    ctx.body = "";
    ctx.set("Location", location);
  });

  router.get("/entities/:entityId", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    if (responses && sendCached(ctx, responses, s.tenant, id)) return;
    const generation = responses?.generation ?? 0;
    const opts = renderOptions(ctx, s.ldContext);
    const type = negotiate(ctx, ["application/json", "application/ld+json", "application/geo+json"]);
    const e = await entities.retrieve(s.tenant, id, s.ldContext);
    if (opts.attrs && ![...opts.attrs].some((a) => a in e)) {
      throw notFound(`Entity ${id} has none of the attributes asked for`, { id });
    }
    const geoProp = param(ctx, "geometryProperty");
    const { join, level: joinLevel } = joinParams(ctx);
    if (join && type !== "application/geo+json") {
      const read = async (ids: string[]) =>
        (await entities.repo.readMany(s.tenant, ids, s.ldContext)).filter((x): x is Entity => !!x);
      sendNgsi(ctx, 200, await renderJoined(e, join, joinLevel, opts, read), type);
      return;
    }
    const body =
      type === "application/geo+json"
        ? renderFeature(e, opts, geoProp ? canonicalName(s.ldContext, geoProp) : undefined)
        : renderEntity(e, opts);
    if (Object.keys(body).length === 0)
      throw notFound(`Nothing of entity ${id} is left after pick/omit`, { id });
    sendNgsi(ctx, 200, body, type);
    if (responses) remember(ctx, responses, s.tenant, id, generation);
  });

  router.delete("/entities/:entityId", async (ctx) => {
    const s = st(ctx);
    await entities.delete(s.tenant, pathEntityId(ctx), s.ldContext);
    ctx.status = 204;
  });

  router.put("/entities/:entityId", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const raw = objectBody(ctx);
    if (raw.id !== undefined && raw.id !== id) throw badRequest("The id in the body differs from the path");
    const entity = entityFromBody({ ...raw, id }, "entity", s.ldContext);
    await entities.replace(s.tenant, id, entity, s.ldContext);
    ctx.status = 204;
  });

  router.patch("/entities/:entityId", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const raw = objectBody(ctx);
    if (raw.id !== undefined && raw.id !== id) throw badRequest("The id in the body differs from the path");
    const patch = entityFromBody(raw, "fragment", s.ldContext);
    await entities.merge(s.tenant, id, patch, s.ldContext);
    ctx.status = 204;
  });

  router.post("/entities/:entityId/attrs", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const fragment = entityFromBody(fragmentBody(ctx, id), "fragment", s.ldContext);
    const noOverwrite = optionsParam(ctx).has("noOverwrite");
    sendUpdateResult(ctx, await attrs.append(s.tenant, id, fragment, noOverwrite, s.ldContext));
  });

  router.patch("/entities/:entityId/attrs", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const fragment = entityFromBody(fragmentBody(ctx, id), "fragment", s.ldContext);
    sendUpdateResult(ctx, await attrs.update(s.tenant, id, fragment, s.ldContext));
  });

  router.patch("/entities/:entityId/attrs/:attrId", async (ctx) => {
    const s = st(ctx);
    const { id, name } = attrPath(ctx);
    const raw = objectBody(ctx);
    const typeless = raw.type === undefined && !VALUE_MEMBERS.some((m) => m in raw);
    const insts = typeless
      ? attributeBody(ctx, name, s, { type: "Property", value: PLACEHOLDER, ...raw })
      : attributeBody(ctx, name, s);
    await attrs.partialUpdate(s.tenant, id, name, insts, s.ldContext, typeless);
    ctx.status = 204;
  });

  router.put("/entities/:entityId/attrs/:attrId", async (ctx) => {
    const s = st(ctx);
    const { id, name } = attrPath(ctx);
    await attrs.replaceAttribute(s.tenant, id, name, attributeBody(ctx, name, s), s.ldContext);
    ctx.status = 204;
  });

  router.delete("/entities/:entityId/attrs/:attrId", async (ctx) => {
    const s = st(ctx);
    const { id, name } = attrPath(ctx);
    const datasetId = param(ctx, "datasetId");
    const deleteAll = param(ctx, "deleteAll") === "true";
    try {
      await attrs.deleteAttribute(s.tenant, id, name, { datasetId, deleteAll }, s.ldContext);
    } catch (e) {
      const historyOnly =
        historyOnlyDeletion && e instanceof AppError && e.kind === "ResourceNotFound" && !deleteAll;
      if (!historyOnly || !(await historyOnlyDeletion(s.tenant, id, name, s.ldContext, datasetId))) throw e;
    }
    ctx.status = 204;
  });
}

/** The body of an attribute-list operation: an object of attributes; a stray id must match the path. */
function fragmentBody(ctx: Context, id: string): Record<string, unknown> {
  const raw = objectBody(ctx);
  if (raw.id !== undefined && raw.id !== id) throw badRequest("The id in the body differs from the path");
  const { id: _i, ...fragment } = raw;
  if (Object.keys(fragment).length === 0) throw badRequest("The body holds no attribute");
  return fragment;
}

function attrPath(ctx: Context): { id: string; name: string } {
  const id = pathEntityId(ctx);
  const ldc = st(ctx).ldContext;
  return { id, name: canonicalName(ldc, pathAttrId(ctx, ldc)) };
}

/** The body of a single-attribute operation (§6.7.3.1, §6.7.3.3): one attribute's instance(s). */
const VALUE_MEMBERS = ["value", "object", "languageMap", "vocab", "json", "valueList", "objectList"];
/** Stands in for the value of a fragment that only changes sub-attributes or meta members (§5.6.4). */
const PLACEHOLDER = "urn:citygraph:partial-update-placeholder";

function attributeBody(ctx: Context, name: string, s: NgsiState, given?: Record<string, unknown>) {
  const raw = given ?? objectBody(ctx);
  if (Object.keys(raw).length === 0) throw badRequest("The attribute fragment is empty");
  if (name === "scope") throw badRequest("scope is not an attribute that can be replaced this way");
  return instancesOf(entityFromBody({ [name]: raw }, "fragment", s.ldContext), name);
}
