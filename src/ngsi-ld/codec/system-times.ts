import type { CompiledJsonLdContext } from "../../rdf/contexts/compile-context";
import type { NtTriple } from "../../rdf/ntriples/terms";
import { ntLine, ntLiteral } from "../../rdf/ntriples/write";
import {
  CITYGRAPH_STORE_NS,
  NGSI_LD_CREATED_AT,
  NGSI_LD_DATASET_ID,
  NGSI_LD_DATETIME,
  NGSI_LD_MODIFIED_AT,
  RDF_JSON,
} from "../../rdf/vocab";
import type { XNode, XValue } from "./expanded";
import type { JsonValue } from "./types";

/**
 * Compact storage of the attribute system timestamps (ETSI GS CIM 009 v1.8 §4.8 createdAt/modifiedAt
 * of each attribute instance). In the normative RDF every instance carries two more triples
 * (`_:b ngsi-ld:createdAt "t"^^ngsi-ld:DateTime`, same for modifiedAt): 20 of the 72 quads of a
 * 10-attribute entity, and Oxigraph's load cost is per quad. The store keeps them instead as ONE
 * rdf:JSON literal on the entity,
 * `<entity> <https://w3id.org/citygraph/store#attributeTimes> "{"d":[c,m],"x":{key:[c,m]}}"`,
 * where `d` is the most frequent (createdAt, modifiedAt) pair and `x` lists the instances that differ
 * (`null` = absent); `key` is the expanded attribute IRI, plus " " and the expanded datasetId if any.
 * The entity's own createdAt/modifiedAt stay ordinary triples. The reader puts the times back on the
 * instance nodes, so sysAttrs output is exactly what the triples would give.
 *
 * All or nothing per entity: the compact form is used only when every top-level attribute instance
 * is a plain node object whose key is unique, with string timestamps under the core context's
 * createdAt/modifiedAt/datasetId definitions; otherwise every time stays a normative triple.
 */
export const ATTRIBUTE_TIMES = `${CITYGRAPH_STORE_NS}attributeTimes`;

type Obj = { [k: string]: JsonValue };
type Pair = [string | null, string | null];

/** The attribute-instance timestamps of an entity, by instance key (see above). */
export type InstanceTimes = Map<string, Pair>;

/** True if `ctx` defines createdAt/modifiedAt/datasetId as the core context does. */
function coreTimeTerms(ctx: CompiledJsonLdContext): boolean {
  const c = ctx.definition("createdAt");
  const m = ctx.definition("modifiedAt");
  const d = ctx.definition("datasetId");
  return (
    c?.iri === NGSI_LD_CREATED_AT &&
    c.coerce === NGSI_LD_DATETIME &&
    m?.iri === NGSI_LD_MODIFIED_AT &&
    m.coerce === NGSI_LD_DATETIME &&
    d?.iri === NGSI_LD_DATASET_ID &&
    d.coerce === "@id"
  );
}

/** The key of an instance node, or undefined when the instance does not qualify (see above). */
function instanceKey(attrIri: string, inst: Obj, ctx: CompiledJsonLdContext): string | undefined {
  for (const k of Object.keys(inst)) {
    const iri = ctx.vocabIri(k);
    if (iri === null || iri === "@type") continue;
    if (iri.charCodeAt(0) === 64) return undefined; // @id, @value, @list...: not a blank node object
    if (
      (iri === NGSI_LD_CREATED_AT || iri === NGSI_LD_MODIFIED_AT) &&
      k !== "createdAt" &&
      k !== "modifiedAt"
    )
      return undefined;
    if (iri === NGSI_LD_DATASET_ID && k !== "datasetId") return undefined;
  }
  for (const t of [inst.createdAt, inst.modifiedAt])
    if (t !== undefined && typeof t !== "string") return undefined;
  const ds = inst.datasetId;
  if (ds === undefined) return attrIri;
  if (typeof ds !== "string") return undefined;
  const dsIri = ctx.expandIri(ds, false);
  if (dsIri === null || dsIri.startsWith("_:")) return undefined;
  return `${attrIri} ${dsIri}`;
}

/**
 * The attribute-instance timestamps of `entity` by instance key, or undefined when the entity does not
 * qualify (then the caller writes normative triples). The entity is not copied: when this gives times,
 * the writer leaves out the `createdAt`/`modifiedAt` members of the entity's instance nodes itself
 * (TripleWriter's `omitInstanceTimes`), which every instance object here is.
 */
export function attributeTimesOf(entity: Obj, ctx: CompiledJsonLdContext): InstanceTimes | undefined {
  if (!coreTimeTerms(ctx)) return undefined;
  const keys = new Set<string>();
  const pairs: InstanceTimes = new Map();
  for (const name of Object.keys(entity)) {
    const iri = ctx.vocabIri(name);
    if (iri === null || iri.charCodeAt(0) === 64) continue;
    const def = ctx.definition(name);
    const container = def?.container ?? "";
    if (def?.coerce === "@json" || container.includes("@list") || container.includes("@language"))
      return undefined;
    const v = entity[name];
    if (Array.isArray(v)) {
      for (const inst of v) if (!timesOf(iri, inst, ctx, keys, pairs)) return undefined;
    } else if (!timesOf(iri, v, ctx, keys, pairs)) return undefined;
  }
  return pairs;
}

/** Adds the times of one instance to `pairs`; false when it does not qualify. Non-objects pass. */
function timesOf(
  iri: string,
  inst: JsonValue,
  ctx: CompiledJsonLdContext,
  keys: Set<string>,
  pairs: InstanceTimes,
): boolean {
  if (inst === null || typeof inst !== "object") return true;
  if (Array.isArray(inst)) return false;
  const key = instanceKey(iri, inst, ctx);
  if (key === undefined || keys.has(key)) return false;
  keys.add(key);
  pairs.set(key, [
    (inst.createdAt as string | undefined) ?? null,
    (inst.modifiedAt as string | undefined) ?? null,
  ]);
  return true;
}

/** The pair every instance has, if they all have the same one (undefined also when there are none). */
function sharedPair(pairs: InstanceTimes): Pair | undefined {
  let first: Pair | undefined;
  for (const p of pairs.values()) {
    if (first === undefined) first = p;
    else if (p[0] !== first[0] || p[1] !== first[1]) return undefined;
  }
  return first;
}

/** The N-Triples line of the literal on `subject` ("" when no instance has a timestamp). */
export function attributeTimesLine(subject: string, pairs: InstanceTimes): string {
  const first = sharedPair(pairs);
  if (first !== undefined) {
    // the common case, every instance stamped alike: no counting
    if (first[0] === null && first[1] === null) return "";
    return ntLine(subject, ATTRIBUTE_TIMES, ntLiteral(JSON.stringify({ d: first }), RDF_JSON));
  }
  const freq = new Map<string, number>();
  let best: Pair = [null, null];
  let bestN = 0;
  for (const p of pairs.values()) {
    const sig = `${p[0] ?? "\u0001"}\u0000${p[1] ?? "\u0001"}`;
    const n = (freq.get(sig) ?? 0) + 1;
    freq.set(sig, n);
    if (n > bestN) [best, bestN] = [p, n];
  }
  if (best[0] === null && best[1] === null && bestN === pairs.size) return "";
  const x: Record<string, Pair> = {};
  let any = false;
  for (const [k, p] of pairs) {
    if (p[0] !== best[0] || p[1] !== best[1]) {
      x[k] = p;
      any = true;
    }
  }
  const json = JSON.stringify(any ? { d: best, x } : { d: best });
  return ntLine(subject, ATTRIBUTE_TIMES, ntLiteral(json, RDF_JSON));
}

/**
 * Puts the timestamps of the literal (if `triples` hold one on `entityId`) back on the top-level
 * instance nodes of `node`, as the literals the normative triples would have given.
 */
export function restoreAttributeTimes(node: XNode, triples: NtTriple[], entityId: string): void {
  let json: string | undefined;
  for (const t of triples) {
    if (
      t.predicate === ATTRIBUTE_TIMES &&
      t.subject.value === entityId &&
      t.subject.termType === "NamedNode"
    ) {
      json = t.object.value;
      break;
    }
  }
  if (json === undefined) return;
  let parsed: { d: Pair; x?: Record<string, Pair> };
  try {
    parsed = JSON.parse(json) as { d: Pair; x?: Record<string, Pair> };
  } catch {
    return; // not ours: a literal someone else wrote under our predicate is no timestamp
  }
  for (const [iri, values] of node.props) {
    for (const v of values) {
      if (v.k !== "node" || v.id !== undefined) continue;
      const ds = v.props.get(NGSI_LD_DATASET_ID)?.[0];
      const key = ds?.k === "ref" ? `${iri} ${ds.id}` : iri;
      const [c, m] = parsed.x?.[key] ?? parsed.d;
      if (c !== null) v.props.set(NGSI_LD_CREATED_AT, [dateTime(c)]);
      if (m !== null) v.props.set(NGSI_LD_MODIFIED_AT, [dateTime(m)]);
    }
  }
}

function dateTime(v: string): XValue {
  return { k: "lit", v, t: NGSI_LD_DATETIME, l: undefined, native: undefined };
}
