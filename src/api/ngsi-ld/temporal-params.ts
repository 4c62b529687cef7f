import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { isValidName } from "../../ngsi-ld/model/uri";
import type { Projection } from "../../ngsi-ld/render/projection";
import { parseTemporalQuery, type Lookup, type TemporalQuery } from "../../ngsi-ld/temporal/temporal-query";
import type { TemporalView } from "../../ngsi-ld/temporal/render-temporal";
import { listParam, optionsParam, param, projectionParams } from "./query-params";

/** A temporal request's query, view and `pick`/`omit` (ETSI GS CIM 009 v1.8 §5.7.3, §5.7.4, §4.21). */
export interface TemporalRequest {
  query: TemporalQuery;
  view: TemporalView;
  pick?: Projection;
  omit?: Projection;
}

const FORMATS = new Set(["normalized", "temporalValues", "simplified", "aggregatedValues"]);

/**
 * Reads the parameters of a temporal retrieval or query: `format` (normalized, temporalValues,
 * aggregatedValues; it wins over `options`), `options` (temporalValues, aggregatedValues, sysAttrs),
 * `attrs`, `pick`/`omit` (not with each other nor with `attrs`), `datasetId`, and the temporal query
 * from `temporal` (the query string, or a POST Query's `temporalQ`). 400 on any mistake.
 */
export function temporalRequest(
  ctx: Context,
  ldc: CompiledContext,
  pageLimit: number,
  temporal: Lookup = (n) => param(ctx, n),
  bodyAttrs?: string[],
): TemporalRequest {
  const options = optionsParam(ctx);
  const format = param(ctx, "format");
  if (format !== undefined && !FORMATS.has(format)) {
    throw new AppError("InvalidRequest", `Unknown format ${format}`, { parameter: "format", value: format });
  }
  let representation: TemporalView["representation"] = "normalized";
  if (format !== undefined)
    representation = format === "simplified" ? "temporalValues" : (format as typeof representation);
  else if (options.has("aggregatedValues")) representation = "aggregatedValues";
  else if (options.has("temporalValues") || options.has("simplified") || options.has("keyValues"))
    representation = "temporalValues";
  const query = parseTemporalQuery(temporal, representation === "aggregatedValues");
  const attrs = bodyAttrs ?? listParam(ctx, "attrs");
  const bad = attrs?.find((n) => !isValidName(n));
  if (bad !== undefined)
    throw badRequest(`attrs: ${bad} is not a valid attribute name`, { parameter: "attrs" });
  const { pick, omit } = projectionParams(ctx, ldc);
  if (pick && omit) {
    for (const n of pick.names) {
      if (omit.names.has(n)) throw badRequest(`${n} is in both pick and omit`, { parameter: "pick" });
    }
  }
  if ((pick || omit) && attrs)
    throw badRequest("attrs cannot be combined with pick or omit", { parameter: "attrs" });
  const datasetIds = listParam(ctx, "datasetId");
  const view: TemporalView = {
    representation,
    sysAttrs: options.has("sysAttrs"),
    attrs: attrs ? new Set(attrs.map((n) => ldc.expandTerm(n))) : undefined,
    datasetIds: datasetIds ? new Set(datasetIds) : undefined,
    pageLimit,
  };
  return { query, view, pick, omit };
}

/** Applies `pick`/`omit` to the top-level members of a rendered temporal entity (§4.21). */
export function project(body: Record<string, unknown>, r: TemporalRequest): Record<string, unknown> {
  if (!r.pick && !r.omit) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (r.pick && !r.pick.names.has(k)) continue;
    if (r.omit && r.omit.names.has(k)) continue;
    out[k] = v;
  }
  return out;
}
