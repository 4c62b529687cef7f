import type { CompiledJsonLdContext, CompiledTerm } from "../../rdf/contexts/compile-context";
import type { XLiteral, XNode, XValue } from "./expanded";
import { nativeQuery, termQuery } from "./term-queries";

type Obj = Record<string, unknown>;

/**
 * JSON-LD 1.1 compaction of an expanded node with compactArrays (JSON-LD 1.1 API §6.1 Compaction,
 * §4.5 IRI Compaction, §6.3 Value Compaction), matching jsonld.js 9 for the features NGSI-LD uses.
 * A GeoJSON value (rdf:JSON under hasValue of a GeoProperty) comes back as the plain geometry object.
 */
export class Compactor {
  private readonly idKey: string;
  private readonly typeKey: string;

  constructor(private readonly ctx: CompiledJsonLdContext) {
    this.idKey = ctx.alias("@id");
    this.typeKey = ctx.alias("@type");
  }

  /** Compacts a node object (JSON-LD 1.1 API §6.1 steps 9–12). */
  node(n: XNode, geo = false): Obj {
    const ctx = this.ctx;
    const out: Obj = {};
    if (n.id !== undefined) out[this.idKey] = ctx.compactId(n.id);
    if (n.types.length > 0) {
      const types = n.types.map((t) => ctx.compactIri(t));
      out[this.typeKey] = types.length === 1 ? types[0] : types;
    }
    const isGeo = geo || n.types.includes("https://uri.etsi.org/ngsi-ld/GeoProperty");
    for (const [iri, values] of n.props) {
      for (const v of values) this.property(out, iri, v, isGeo);
    }
    return out;
  }

  private property(out: Obj, iri: string, v: XValue, geo: boolean): void {
    const ctx = this.ctx;
    let term: string;
    if (v.k === "lit" && v.native !== undefined) {
      const typed = ctx.compactProperty(iri, nativeQuery(v.native));
      term = ctx.definition(typed)?.coerce === v.native ? typed : ctx.compactProperty(iri, termQuery(v, ctx));
    } else term = ctx.compactProperty(iri, termQuery(v, ctx));
    const def = ctx.definition(term);
    const container = def?.container ?? "";
    if (v.k === "list") {
      const items = v.items.map((i) => this.value(i, def, false));
      if (container.includes("@list")) out[term] = items;
      else addValue(out, term, { [ctx.alias("@list")]: items }, container.includes("@set"));
      return;
    }
    if (v.k === "lit" && container.includes("@language") && (v.l !== undefined || v.t === undefined)) {
      const map = (out[term] ??= {}) as Obj;
      addValue(map, v.l ?? ctx.alias("@none"), v.v, false);
      return;
    }
    const geoValue =
      geo && v.k === "lit" && v.t === "@json" && iri === "https://uri.etsi.org/ngsi-ld/hasValue";
    addValue(out, term, geoValue ? v.v : this.value(v, def, false), container.includes("@set"));
  }

  /** Value compaction (JSON-LD 1.1 API §6.3) or recursive node compaction. */
  private value(v: XValue, def: CompiledTerm | undefined, geo: boolean): unknown {
    switch (v.k) {
      case "lit":
        return this.literal(v, def);
      case "ref": {
        const c = def?.coerce;
        if (c === "@id" || c === "@vocab")
          return c === "@vocab" ? this.ctx.compactIri(v.id) : this.ctx.compactId(v.id);
        return { [this.idKey]: this.ctx.compactId(v.id) };
      }
      case "node":
        return this.node(v, geo);
      case "list":
        return { [this.ctx.alias("@list")]: v.items.map((i) => this.value(i, def, false)) };
    }
  }

  private literal(v: XLiteral, def: CompiledTerm | undefined): unknown {
    const ctx = this.ctx;
    const type = v.t ?? v.native;
    const coerce = def?.coerce;
    if (coerce !== "@none") {
      if (type !== undefined && type === coerce) return v.v;
      if (v.l !== undefined && v.l === ctx.language) return v.v;
    }
    if (
      v.t === undefined &&
      v.l === undefined &&
      coerce !== "@none" &&
      (ctx.language === undefined || typeof v.v !== "string")
    )
      return v.v;
    const out: Obj = {};
    if (v.t !== undefined) out[this.typeKey] = ctx.compactIri(v.t);
    else if (v.l !== undefined) out[ctx.alias("@language")] = v.l;
    out[ctx.alias("@value")] = v.v;
    return out;
  }
}

/** jsonld.js addValue: a second value turns the member into an array (JSON-LD 1.1 API §6.1 step 12.8.9). */
function addValue(out: Obj, key: string, value: unknown, asArray: boolean): void {
  const cur = out[key];
  if (cur === undefined) out[key] = asArray ? [value] : value;
  else if (Array.isArray(cur)) cur.push(value);
  else out[key] = [cur, value];
}
