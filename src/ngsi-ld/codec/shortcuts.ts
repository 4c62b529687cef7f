import { type CompiledJsonLdContext } from "../../rdf/contexts/compile-context";
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
 * Shortcut triples (docs/design.md "Values are also plain triples"): one direct triple per value of each
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
    const v = entity[key] as JsonValue;
    if (Array.isArray(v)) for (const inst of v) text += linesOf(inst, subject, own, iri, ctx);
    else text += linesOf(v, subject, own, iri, ctx);
  }
  return text;
}

/**
 * The shortcut lines of one attribute instance ("" for anything that is not an instance object). Written
 * straight into the text: no array of [predicate, object] pairs per instance (a share of the main
 * thread's allocation per POST, docs/decisions/0001-write-path.md).
 */
function linesOf(
  inst: JsonValue | undefined,
  subject: string,
  own: string,
  iri: string,
  ctx: CompiledJsonLdContext,
): string {
  if (inst === null || typeof inst !== "object" || Array.isArray(inst)) return "";
  let text = "";
  switch (inst.type) {
    case "Property": {
      const vs = inst.value;
      if (Array.isArray(vs)) for (const v of vs) text += propertyLine(subject, iri, v, ctx);
      else if (vs !== undefined) text += propertyLine(subject, iri, vs, ctx);
      break;
    }
    case "Relationship":
    case "VocabProperty": {
      const vocab = inst.type === "VocabProperty";
      const os = vocab ? inst.vocab : inst.object;
      if (Array.isArray(os)) for (const o of os) text += iriLine(subject, iri, o, vocab, ctx);
      else if (os !== undefined) text += iriLine(subject, iri, os, vocab, ctx);
      break;
    }
    case "LanguageProperty": {
      const map = inst.languageMap;
      if (map === null || typeof map !== "object" || Array.isArray(map)) break;
      for (const lang of Object.keys(map)) {
        const ss = map[lang];
        if (Array.isArray(ss)) for (const x of ss) text += languageLine(subject, iri, x, lang);
        else if (ss !== undefined) text += languageLine(subject, iri, ss, lang);
      }
      break;
    }
    case "GeoProperty": {
      const wkt = geoJsonToWkt(inst.value);
      if (wkt === undefined) break;
      const lit = ntLiteral(wkt, GEO_WKT_LITERAL);
      text += ntLine(subject, GEO_AS_WKT, lit);
      if (iri !== own) text += ntLine(subject, iri, lit);
      const g = inst.value as Obj;
      const c = g.coordinates;
      if (
        own === NGSI_LD_LOCATION &&
        g.type === "Point" &&
        Array.isArray(c) &&
        typeof c[0] === "number" &&
        typeof c[1] === "number"
      ) {
        text += ntLine(subject, WGS84_LAT, ntLiteral(String(c[1]), XSD_DOUBLE));
        text += ntLine(subject, WGS84_LONG, ntLiteral(String(c[0]), XSD_DOUBLE));
      }
      break;
    }
  }
  return text;
}

/** The line of one value of a Property ("" for a nested object). */
function propertyLine(subject: string, iri: string, v: JsonValue, ctx: CompiledJsonLdContext): string {
  const lit = literalOf(v, ctx);
  return lit === undefined ? "" : ntLine(subject, iri, lit);
}

/** The line of one object of a Relationship, or one vocab of a VocabProperty ("" for a non-string). */
function iriLine(
  subject: string,
  iri: string,
  o: JsonValue,
  vocab: boolean,
  ctx: CompiledJsonLdContext,
): string {
  return typeof o === "string" ? ntLine(subject, iri, ntIri(ctx.expandIri(o, vocab) ?? o)) : "";
}

/** The line of one string of a LanguageProperty's map entry `lang` ("" for a non-string). */
function languageLine(subject: string, iri: string, s: JsonValue, lang: string): string {
  if (typeof s !== "string") return "";
  return ntLine(
    subject,
    iri,
    lang === "@none" ? ntLiteral(s, XSD_STRING) : ntLangLiteral(s, lang.toLowerCase()),
  );
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
