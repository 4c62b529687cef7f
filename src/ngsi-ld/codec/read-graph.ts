import type { NtTerm, NtTriple } from "../../rdf/ntriples/terms";
import {
  NGSI_LD_CREATED_AT,
  NGSI_LD_DELETED_AT,
  NGSI_LD_MODIFIED_AT,
  NGSI_LD_SCOPE,
  RDF_FIRST,
  RDF_JSON,
  RDF_LANGSTRING,
  RDF_NIL,
  RDF_REST,
  RDF_TYPE,
  XSD_STRING,
} from "../../rdf/vocab";
import type { XList, XNode, XValue } from "./expanded";
import { nativeFromLexical } from "./literals";

/** Predicates whose IRI/literal objects on the entity subject are entity facts, not shortcuts. */
const ENTITY_FACTS: ReadonlySet<string> = new Set([
  RDF_TYPE,
  NGSI_LD_CREATED_AT,
  NGSI_LD_MODIFIED_AT,
  NGSI_LD_SCOPE,
  NGSI_LD_DELETED_AT,
]);

/**
 * Rebuilds the expanded entity node from its graph (JSON-LD 1.1 API §8.5, blank nodes embedded,
 * rdf:first/rest chains as `@list`). Shortcut triples (docs/design.md "Values are also plain triples")
 * are ignored: on the entity subject only rdf:type, createdAt, modifiedAt, scope, deletedAt and
 * triples whose object is a blank node are read.
 */
export function readEntityNode(triples: NtTriple[], entityId: string): XNode {
  const blanks = new Map<string, NtTriple[]>();
  const root: NtTriple[] = [];
  for (const t of triples) {
    const s = t.subject;
    if (s.termType === "BlankNode") {
      const list = blanks.get(s.value);
      if (list === undefined) blanks.set(s.value, [t]);
      else list.push(t);
    } else if (s.value === entityId && (t.object.termType === "BlankNode" || ENTITY_FACTS.has(t.predicate)))
      root.push(t);
  }
  return new Reader(blanks).node(entityId, root, new Set());
}

class Reader {
  constructor(private readonly blanks: Map<string, NtTriple[]>) {}

  node(id: string | undefined, triples: NtTriple[], path: Set<string>): XNode {
    const node: XNode = { k: "node", id, types: [], props: new Map() };
    for (const t of triples) {
      if (t.predicate === RDF_TYPE && t.object.termType !== "Literal") {
        node.types.push(t.object.termType === "BlankNode" ? `_:${t.object.value}` : t.object.value);
        continue;
      }
      const v = this.value(t.object, path);
      const vs = node.props.get(t.predicate);
      if (vs === undefined) node.props.set(t.predicate, [v]);
      else vs.push(v);
    }
    return node;
  }

  private value(o: NtTerm, path: Set<string>): XValue {
    if (o.termType === "Literal") {
      if (o.datatype === XSD_STRING)
        return { k: "lit", v: o.value, t: undefined, l: undefined, native: undefined };
      if (o.datatype === RDF_LANGSTRING)
        return { k: "lit", v: o.value, t: undefined, l: o.language.toLowerCase(), native: undefined };
      const n = nativeFromLexical(o.value, o.datatype);
      if (n === undefined) return { k: "lit", v: o.value, t: o.datatype, l: undefined, native: undefined };
      if (o.datatype === RDF_JSON) return { k: "lit", v: n, t: "@json", l: undefined, native: undefined };
      return { k: "lit", v: n, t: undefined, l: undefined, native: o.datatype };
    }
    if (o.termType === "NamedNode")
      return o.value === RDF_NIL ? { k: "list", items: [] } : { k: "ref", id: o.value };
    const triples = this.blanks.get(o.value);
    if (triples === undefined || path.has(o.value)) return { k: "ref", id: `_:${o.value}` };
    path.add(o.value);
    const r = isListNode(triples) ? this.list(triples, path) : this.node(undefined, triples, path);
    path.delete(o.value);
    return r;
  }

  private list(first: NtTriple[], path: Set<string>): XList {
    const items: XValue[] = [];
    let cur: NtTriple[] | undefined = first;
    const seen: string[] = [];
    while (cur !== undefined) {
      let rest: NtTerm | undefined;
      for (const t of cur) {
        if (t.predicate === RDF_FIRST) items.push(this.value(t.object, path));
        else if (t.predicate === RDF_REST) rest = t.object;
      }
      if (rest === undefined || rest.termType !== "BlankNode" || seen.includes(rest.value)) break;
      seen.push(rest.value);
      cur = this.blanks.get(rest.value);
    }
    return { k: "list", items };
  }
}

function isListNode(triples: NtTriple[]): boolean {
  return (
    triples.length === 2 &&
    triples.some((t) => t.predicate === RDF_FIRST) &&
    triples.some((t) => t.predicate === RDF_REST)
  );
}
