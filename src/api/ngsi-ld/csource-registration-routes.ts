import type Router from "@koa/router";
import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";
import { isAbsoluteUri } from "../../ngsi-ld/model/uri";
import type { RegistrationService } from "../../ngsi-ld/federation/registration-service";
import { registrationView } from "../../ngsi-ld/federation/registration-view";
import { registrationQuery } from "../../ngsi-ld/federation/registration-query";
import { jsonObjectBody } from "./entity-body";
import { negotiate, sendNgsi } from "./negotiate";
import { ngsiState } from "./ngsi-state";
import { listParam, optionsParam, pageParams, param, pathUri } from "./query-params";

const st = ngsiState;

const pathId = (ctx: Context): string => pathUri(ctx, "registrationId", "Registration id");
const bodyOf = (ctx: Context): unknown => jsonObjectBody(ctx, "BadRequestData");

/**
 * Link headers to the previous and next pages (§6.3.13): the request's other parameters first, then
 * `limit` and `offset`.
 */
function setRegistrationPageLinks(ctx: Context, offset: number, limit: number, total: number): void {
  if (limit === 0) return;
  const q = new URLSearchParams(ctx.querystring);
  q.delete("limit");
  q.delete("offset");
  const link = (o: number, rel: string) => {
    const rest = q.toString();
    const qs = `${rest ? `${rest}&` : ""}limit=${limit}&offset=${o}`;
    return `</ngsi-ld/v1/csourceRegistrations?${qs}>;rel="${rel}";type="application/ld+json"`;
  };
  const links: string[] = [];
  if (offset > 0) links.push(link(Math.max(0, offset - limit), "prev"));
  if (total > offset + limit) links.push(link(offset + limit, "next"));
  if (links.length) ctx.set("Link", links.join(","));
}

/**
 * Routes of the context source registration resources (ETSI GS CIM 009 v1.8 §6.8, §6.9): POST
 * /csourceRegistrations (201 + Location), GET /csourceRegistrations (§5.10.2 query: type, id, idPattern,
 * attrs, q and csf on context source properties, geo-queries on `location`, timerel on the intervals;
 * limit, offset, count), GET, PATCH (204) and DELETE (204) /csourceRegistrations/{registrationId}.
 */
export function registerCsourceRegistrationRoutes(
  router: Router,
  regs: RegistrationService,
  maxLimit: number,
): void {
  const noId = () => {
    throw new AppError("MethodNotAllowed", "This method needs a registration id");
  };
  router.patch("/csourceRegistrations/", noId);
  router.delete("/csourceRegistrations/", noId);

  router.post("/csourceRegistrations", async (ctx) => {
    const s = st(ctx);
    const id = await regs.create(s.tenant, bodyOf(ctx), s.contextValue, s.ldContext);
    ctx.status = 201;
    ctx.body = "";
    ctx.set("Location", `/ngsi-ld/v1/csourceRegistrations/${id}`);
  });

  router.get("/csourceRegistrations", async (ctx) => {
    const s = st(ctx);
    const type = negotiate(ctx, ["application/json", "application/ld+json"]);
    const { limit, offset, count } = pageParams(ctx, maxLimit);
    const sysAttrs = optionsParam(ctx).has("sysAttrs");
    const ids = listParam(ctx, "id");
    const bad = ids?.find((i) => !isAbsoluteUri(i));
    if (bad !== undefined) throw badRequest(`id ${JSON.stringify(bad)} is not a URI`, { parameter: "id" });
    const matches = registrationQuery(
      {
        type: param(ctx, "type"),
        ids,
        idPattern: param(ctx, "idPattern"),
        attrs: listParam(ctx, "attrs"),
        q: param(ctx, "q"),
        csf: param(ctx, "csf"),
        geo: {
          georel: param(ctx, "georel"),
          geometry: param(ctx, "geometry"),
          coordinates: param(ctx, "coordinates"),
          geoproperty: param(ctx, "geoproperty"),
        },
        timerel: param(ctx, "timerel"),
        timeAt: param(ctx, "timeAt"),
        endTimeAt: param(ctx, "endTimeAt"),
        timeproperty: param(ctx, "timeproperty"),
      },
      s.ldContext,
    );
    const all = regs.list(s.tenant).filter(matches);
    if (count) ctx.set("NGSILD-Results-Count", String(all.length));
    setRegistrationPageLinks(ctx, offset, limit, all.length);
    const page = all.slice(offset, offset + limit);
    sendNgsi(
      ctx,
      200,
      page.map((cr) => registrationView(cr, s.ldContext, sysAttrs)),
      type,
    );
  });

  router.get("/csourceRegistrations/:registrationId", async (ctx) => {
    const s = st(ctx);
    const type = negotiate(ctx, ["application/json", "application/ld+json"]);
    const cr = regs.get(s.tenant, pathId(ctx));
    sendNgsi(ctx, 200, registrationView(cr, s.ldContext, optionsParam(ctx).has("sysAttrs")), type);
  });

  router.patch("/csourceRegistrations/:registrationId", async (ctx) => {
    const s = st(ctx);
    await regs.update(s.tenant, pathId(ctx), bodyOf(ctx), s.contextValue, s.ldContext);
    ctx.status = 204;
  });

  router.delete("/csourceRegistrations/:registrationId", async (ctx) => {
    await regs.delete(st(ctx).tenant, pathId(ctx));
    ctx.status = 204;
  });
}
