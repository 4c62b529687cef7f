import { type CompiledJsonLdContext } from "../../rdf/compile-context";
import { ntIri, ntLangLiteral, ntLine, ntLiteral } from "../../rdf/ntriples/write";
import { ENTITY_META_MEMBERS as ENTITY_META_KEYS } from "../model/attribute-kinds";
import {
  GEO_AS_WKT,
  GEO_WKT_LITERAL,
  NGSI_LD_DATETIME,
  NGSI_LD_LOCATION,
  WGS84_LAT,
  WGS84_LONG,
  XSD_DATETIME,
  XSD_DOUBLE,
  XSD_STRING,
} from "../../rdf/vocab";
import { nativeLexical } from "./literals";
import type { JsonValue, NgsiEntity } from "./types";
import { geoJsonToWkt } from "./wkt";

type Obj = { [k: string]: JsonValue };

/**
 * Shortcut triples (DESIGN.md "Values are also plain triples"): one direct triple per value of each
 * ENTITY-LEVEL attribute instance, so SPARQL reads naturally and GeoSPARQL works (OGC GeoSPARQL 1.1
 * §8.5 geo:asWKT, W3C WGS84 geo:lat/long for the `location` Point). Sub-attributes, JsonProperty and
 * the list kinds get none. The NGSI-LD reader ignores these triples. `aliases` maps an attribute IRI to
 * the predicate its shortcut uses instead (see ToTriplesOptions.shortcutAliases); an aliased GeoProperty
 * also gets its WKT literal under the alias.
 */
export function shortcutTriples(
  entity: NgsiEntity,
  subject: string,
  ctx: CompiledJsonLdContext,
  aliases: Readonly<Record<string, string>> = {},
): string {
  let text = "";
  for (const key of Object.keys(entity)) {
    if (ENTITY_META_KEYS.has(key)) continue;
    const own = ctx.vocabIri(key);
    if (own === null || own.charCodeAt(0) === 64) continue;
    const iri = aliases[own] ?? own;
    const v = entity[key];
    for (const inst of (Array.isArray(v) ? v : [v]) as unknown[]) {
      if (inst === null || typeof inst !== "object" || Array.isArray(inst)) continue;
      for (const o of objectsOf(inst as Obj, own, iri, ctx)) text += ntLine(subject, o[0], o[1]);
    }
  }
  return text;
}

function objectsOf(inst: Obj, own: string, iri: string, ctx: CompiledJsonLdContext): [string, string][] {
  const out: [string, string][] = [];
  switch (inst.type) {
    case "Property":
      for (const v of asArray(inst.value)) {
        const lit = literalOf(v, ctx);
        if (lit !== undefined) out.push([iri, lit]);
      }
      break;
    case "Relationship":
      for (const o of asArray(inst.object))
        if (typeof o === "string") out.push([iri, ntIri(ctx.expandIri(o, false) ?? o)]);
      break;
    case "VocabProperty":
      for (const o of asArray(inst.vocab))
        if (typeof o === "string") out.push([iri, ntIri(ctx.expandIri(o, true) ?? o)]);
      break;
    case "LanguageProperty": {
      const map = inst.languageMap;
      if (map === null || typeof map !== "object" || Array.isArray(map)) break;
      for (const lang of Object.keys(map)) {
        for (const s of asArray(map[lang])) {
          if (typeof s === "string")
            out.push([
              iri,
              lang === "@none" ? ntLiteral(s, XSD_STRING) : ntLangLiteral(s, lang.toLowerCase()),
            ]);
        }
      }
      break;
    }
    case "GeoProperty": {
      const wkt = geoJsonToWkt(inst.value);
      if (wkt === undefined) break;
      const lit = ntLiteral(wkt, GEO_WKT_LITERAL);
      out.push([GEO_AS_WKT, lit]);
      if (iri !== own) out.push([iri, lit]);
      const g = inst.value as Obj;
      const c = g.coordinates;
      if (
        own === NGSI_LD_LOCATION &&
        g.type === "Point" &&
        Array.isArray(c) &&
        typeof c[0] === "number" &&
        typeof c[1] === "number"
      ) {
        out.push(
          [WGS84_LAT, ntLiteral(String(c[1]), XSD_DOUBLE)],
          [WGS84_LONG, ntLiteral(String(c[0]), XSD_DOUBLE)],
        );
      }
      break;
    }
  }
  return out;
}

function asArray(v: JsonValue | undefined): JsonValue[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The direct literal of a Property value member; undefined for nested objects. */
function literalOf(v: JsonValue, ctx: CompiledJsonLdContext): string | undefined {
  if (typeof v === "string") return ntLiteral(v, XSD_STRING);
  if (typeof v === "number" || typeof v === "boolean") {
    const [lex, dt] = nativeLexical(v, undefined);
    return ntLiteral(lex, dt);
  }
  if (v === null || Array.isArray(v)) return undefined;
  const value = v["@value"];
  const type = v["@type"] ?? v.type;
  const lang = v["@language"];
  if (typeof value === "number" || typeof value === "boolean") {
    const dt = typeof type === "string" ? (ctx.expandIri(type, true) ?? undefined) : undefined;
    const [lex, t] = nativeLexical(value, dt);
    return ntLiteral(lex, t);
  }
  if (typeof value !== "string") return undefined;
  if (typeof lang === "string") return ntLangLiteral(value, lang.toLowerCase());
  if (typeof type !== "string") return ntLiteral(value, XSD_STRING);
  const dt = ctx.expandIri(type, true) ?? type;
  return ntLiteral(value, dt === NGSI_LD_DATETIME ? XSD_DATETIME : dt);
}
