import { badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { ENTITY_META_MEMBERS } from "../model/attribute-kinds";
import { canonicalName } from "../model/canonical-names";
import { isAbsoluteUri } from "../model/uri";
import { compileIdPattern } from "./entity-query";
import { parseGeoQuery, type GeoQueryParams } from "./geo";
import { parseQ } from "./q/q-parser";
import { resolveQ } from "./q/q-evaluate";
import type { EntityFilter, EntitySelector } from "./query-filter";
import { parseScopeQuery } from "./scope-query";
import { parseTypeExpression } from "./type-expression";

/** One entity selector as a request states it (query parameters or a Query body, §5.2.33). */
export interface SelectorInput {
  ids?: string[];
  idPattern?: string;
  type?: string;
}

/** The filter of an entity query as a request states it, before parsing. */
export interface FilterInput {
  selectors?: SelectorInput[];
  attrs?: string[];
  q?: string;
  scopeQ?: string;
  /** Geo-query members (GET parameters, or POST's geoQ with `in: "geoQ"`). */
  geo?: { params: GeoQueryParams; in?: string };
}

/**
 * Parses and resolves the filter of an entity query (ETSI GS CIM 009 v1.8 §5.7.2) with the request's
 * @context: type expressions (§4.17), id lists (URIs), idPattern, `attrs`, `q` (§4.9), `scopeQ` (§4.19),
 * geo-queries (§4.10).
 * Malformed input is a 400 BadRequestData; unknown names are not an error (they match nothing).
 */
export function buildFilter(input: FilterInput, ctx: CompiledContext): EntityFilter {
  const f: EntityFilter = {};
  if (input.selectors) f.selectors = input.selectors.map((s) => selector(s, ctx));
  if (input.attrs) {
    const core = input.attrs.find((a) => ENTITY_META_MEMBERS.has(a));
    if (core !== undefined) {
      throw badRequest(`attrs names attributes; ${core} is an entity member`, {
        parameter: "attrs",
        value: core,
      });
    }
    f.attrs = {
      names: input.attrs.map((a) => canonicalName(ctx, a)),
      iris: input.attrs.map((a) => ctx.expandTerm(a)),
    };
  }
  if (input.q !== undefined) f.q = resolveQ(parseQ(input.q), ctx);
  if (input.scopeQ !== undefined) f.scopeQ = parseScopeQuery(input.scopeQ);
  if (input.geo) f.geo = parseGeoQuery(input.geo.params, ctx, { in: input.geo.in });
  return f;
}

function selector(s: SelectorInput, ctx: CompiledContext): EntitySelector {
  const out: EntitySelector = {};
  if (s.ids) {
    const bad = s.ids.find((i) => !isAbsoluteUri(i));
    if (bad !== undefined) throw badRequest(`id ${JSON.stringify(bad)} is not a URI`, { parameter: "id" });
    out.ids = [...new Set(s.ids)];
  }
  if (s.idPattern !== undefined) out.idPattern = compileIdPattern(s.idPattern);
  if (s.type !== undefined) out.types = parseTypeExpression(s.type, ctx);
  return out;
}
