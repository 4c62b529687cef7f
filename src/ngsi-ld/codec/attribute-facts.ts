import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { parseNTriples } from "../../rdf/ntriples/parse";
import { NGSI_LD_GEOPROPERTY, NGSI_LD_HAS_VALUE, RDF_JSON, RDF_TYPE } from "../../rdf/vocab";
import { ENTITY_META_MEMBERS } from "../model/attribute-kinds";
import type { JsonValue, NgsiEntity } from "./types";

/**
 * What the derived indexes (docs/design.md "Indexes beside the store, derived from it") need to know of an
 * entity's attributes, read straight from the entity graph as the codec writes it (ETSI GS CIM 009
 * v1.8 Annex D RDF form: `<entity> <attr> _:b . _:b rdf:type ngsi-ld:<Kind>`, and for a GeoProperty
 * `_:b ngsi-ld:hasValue "<geojson>"^^rdf:JSON`). This file is the ONE place that knows that layout
 * for the indexes: the start-up scan of every graph goes through {@link attributeFacts}, and the change
 * feed, which holds the entity it wrote, through {@link entityAttributeFacts}, the same facts read from
 * the entity object the codec writes that layout from.
 */
export interface AttributeFact {
  /** Expanded attribute IRI. */
  attribute: string;
  /** Expanded kind IRI (ngsi-ld:Property, ngsi-ld:GeoProperty, ...). */
  kind: string;
  /** For a GeoProperty: its GeoJSON value. */
  geometry?: JsonValue;
}

const TYPE_PRED = ` <${RDF_TYPE}> `;
const JSON_DT = `^^<${RDF_JSON}>`;

/**
 * The entity-level attribute instances of entity `entityId` in the N-Triples of its graph (one fact
 * per instance, so several for a multi-instance attribute). Shortcut triples and sub-attributes are
 * not attributes of the entity and are skipped. Only the few relevant lines are parsed.
 */
export function attributeFacts(triples: string, entityId: string): AttributeFact[] {
  const root = `<${entityId}> `;
  let text = "";
  for (const line of triples.split("\n")) {
    if (
      line.startsWith(root)
        ? line.includes(" _:")
        : line.startsWith("_:") && (line.includes(TYPE_PRED) || line.includes(JSON_DT))
    )
      text += line + "\n";
  }
  const parsed = parseNTriples(text);
  const kinds = new Map<string, string>();
  const values = new Map<string, string>();
  for (const t of parsed) {
    if (t.subject.termType !== "BlankNode") continue;
    if (t.predicate === RDF_TYPE && t.object.termType === "NamedNode")
      kinds.set(t.subject.value, t.object.value);
    else if (t.predicate === NGSI_LD_HAS_VALUE && t.object.datatype === RDF_JSON)
      values.set(t.subject.value, t.object.value);
  }
  const out: AttributeFact[] = [];
  for (const t of parsed) {
    if (t.subject.termType !== "NamedNode" || t.object.termType !== "BlankNode") continue;
    const kind = kinds.get(t.object.value);
    if (kind === undefined) continue;
    const fact: AttributeFact = { attribute: t.predicate, kind };
    const v = values.get(t.object.value);
    if (kind === NGSI_LD_GEOPROPERTY && v !== undefined) fact.geometry = JSON.parse(v) as JsonValue;
    out.push(fact);
  }
  return out;
}

/**
 * The facts {@link attributeFacts} reads from the graph the codec writes for `entity` (compacted with
 * `ctx`), read from the entity itself: one per instance of each attribute, its kind expanded, a
 * GeoProperty's object value as its geometry (a copy: the index keeps it). Only for an entity that
 * `readsAsWritten` (reads-as-written.ts); the order of facts may differ from the graph's.
 */
export function entityAttributeFacts(entity: NgsiEntity, ctx: CompiledContext): AttributeFact[] {
  const out: AttributeFact[] = [];
  for (const name of Object.keys(entity)) {
    if (ENTITY_META_MEMBERS.has(name)) continue;
    const attribute = ctx.expandTerm(name);
    const v = entity[name];
    for (const inst of (Array.isArray(v) ? v : [v]) as { type: string; value?: JsonValue }[]) {
      const kind = ctx.expandTerm(inst.type);
      const fact: AttributeFact = { attribute, kind };
      const g = inst.value;
      if (kind === NGSI_LD_GEOPROPERTY && typeof g === "object" && g !== null && !Array.isArray(g))
        fact.geometry = structuredClone(g);
      out.push(fact);
    }
  }
  return out;
}
