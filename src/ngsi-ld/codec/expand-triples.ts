import { type CompiledJsonLdContext, type CompiledTerm } from "../../rdf/contexts/compile-context";
import { ntBlank, ntIri, ntLangLiteral, ntLine, ntLiteral } from "../../rdf/ntriples/write";
import {
  NGSI_LD_GEOPROPERTY,
  NGSI_LD_HAS_VALUE,
  RDF_FIRST,
  RDF_JSON,
  RDF_NIL,
  RDF_REST,
  RDF_TYPE,
  XSD_DOUBLE,
  XSD_STRING,
} from "../../rdf/vocab";
import { canonicalJson, nativeLexical } from "./literals";
import type { JsonValue } from "./types";

/**
 * JSON-LD 1.1 expansion fused with RDF serialisation (JSON-LD 1.1 API §5.1 Expansion, §8.4 Deserialize
 * JSON-LD to RDF), driven by a compiled context: a node object goes straight to N-Triples lines, with
 * no intermediate expanded document. One documented deviation (ETSI GS CIM 009 §4.7 GeoJSON values):
 * the `ngsi-ld:hasValue` of a node typed ngsi-ld:GeoProperty is ONE rdf:JSON literal of the geometry.
 * Blank nodes are labelled b0, b1, ... in document order.
 */
export class TripleWriter {
  text = "";
  private n = 0;
  /** Nesting of the node being written: 0 the entity, 1 its attribute instances, 2 their sub-attributes... */
  private depth = 0;
  constructor(
    private readonly ctx: CompiledJsonLdContext,
    /**
     * Leave out the `createdAt`/`modifiedAt` members of the nodes one level below the top node (the
     * entity's attribute instances), whose times system-times.ts stores in one literal instead.
     */
    private readonly omitInstanceTimes = false,
  ) {}

  /** A fresh blank node (N-Triples text). */
  blank(): string {
    return ntBlank(`b${this.n++}`);
  }

  /** Writes a node object; returns its subject term (IRI from `@id`, else a new blank node). */
  node(obj: { [k: string]: JsonValue }): string {
    const ctx = this.ctx;
    let subject: string | undefined;
    let geo = false;
    const level = this.depth++;
    const omitTimes = level === 1 && this.omitInstanceTimes;
    const keys = Object.keys(obj);
    const iris: (string | null)[] = new Array<string | null>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const iri = (iris[i] = omitTimes && (k === "createdAt" || k === "modifiedAt") ? null : ctx.vocabIri(k));
      if (iri === "@id") {
        const id = obj[keys[i]];
        if (typeof id === "string") subject = this.idTerm(ctx.expandIri(id, false) ?? id);
      }
    }
    subject ??= this.blank();
    for (let i = 0; i < keys.length; i++) {
      if (iris[i] !== "@type") continue;
      const t = obj[keys[i]];
      for (const v of Array.isArray(t) ? t : [t]) {
        if (typeof v !== "string") continue;
        const iri = ctx.vocabIri(v);
        if (iri === null || iri.charCodeAt(0) === 64) continue;
        if (iri === NGSI_LD_GEOPROPERTY) geo = true;
        this.text += ntLine(subject, RDF_TYPE, this.idTerm(iri));
      }
    }
    for (let i = 0; i < keys.length; i++) {
      const iri = iris[i];
      if (iri === null || iri.charCodeAt(0) === 64) continue;
      const value = obj[keys[i]];
      if (
        geo &&
        iri === NGSI_LD_HAS_VALUE &&
        value !== null &&
        typeof value === "object" &&
        !Array.isArray(value)
      ) {
        this.text += ntLine(subject, iri, ntLiteral(canonicalJson(value), RDF_JSON));
      } else this.values(subject, iri, value, ctx.definition(keys[i]));
    }
    this.depth = level;
    return subject;
  }

  private idTerm(iri: string): string {
    return iri.startsWith("_:") ? iri : ntIri(iri);
  }

  /** Writes the expansion of `value` under property `iri` (JSON-LD 1.1 API §5.1.2 step 13). */
  values(subject: string, iri: string, value: JsonValue, def: CompiledTerm | undefined): void {
    if (value === null) return;
    if (def?.coerce === "@json") {
      this.text += ntLine(subject, iri, ntLiteral(canonicalJson(value), RDF_JSON));
      return;
    }
    const container = def?.container;
    if (container !== undefined) {
      if (container.includes("@language") && typeof value === "object" && !Array.isArray(value)) {
        this.languageMap(subject, iri, value);
        return;
      }
      if (container.includes("@list")) {
        const head = this.list(Array.isArray(value) ? value : [value], def);
        this.text += ntLine(subject, iri, head);
        return;
      }
    }
    if (Array.isArray(value)) {
      for (const v of value) this.values(subject, iri, v, def);
      return;
    }
    const o = this.object(value, def);
    if (o !== null) this.text += ntLine(subject, iri, o);
  }

  private languageMap(subject: string, iri: string, map: { [k: string]: JsonValue }): void {
    for (const lang of Object.keys(map)) {
      const v = map[lang];
      const none = lang === "@none" || this.ctx.expandIri(lang, true) === "@none";
      for (const s of Array.isArray(v) ? v : [v]) {
        if (typeof s !== "string") continue;
        this.text += ntLine(
          subject,
          iri,
          none ? ntLiteral(s, XSD_STRING) : ntLangLiteral(s, lang.toLowerCase()),
        );
      }
    }
  }

  /** An RDF collection (JSON-LD 1.1 API §8.4 List Conversion); returns its head term. */
  private list(items: JsonValue[], def: CompiledTerm | undefined): string {
    const objs: string[] = [];
    for (const item of items) {
      if (item === null) continue;
      const o = Array.isArray(item) ? this.list(item, def) : this.object(item, def);
      if (o !== null) objs.push(o);
    }
    if (objs.length === 0) return ntIri(RDF_NIL);
    const heads = objs.map(() => this.blank());
    for (let i = 0; i < objs.length; i++) {
      this.text += ntLine(heads[i], RDF_FIRST, objs[i]);
      this.text += ntLine(heads[i], RDF_REST, i + 1 < heads.length ? heads[i + 1] : ntIri(RDF_NIL));
    }
    return heads[0];
  }

  /** The RDF term of one non-array value (JSON-LD 1.1 API §5.3 Value Expansion, §8.6). */
  private object(value: JsonValue, def: CompiledTerm | undefined): string | null {
    const coerce = def?.coerce;
    if (typeof value === "string") {
      if (coerce === "@id" || coerce === "@vocab") {
        const iri = this.ctx.expandIri(value, coerce === "@vocab");
        return iri === null ? null : this.idTerm(iri);
      }
      if (coerce !== undefined && coerce !== "@none") {
        return ntLiteral(coerce === XSD_DOUBLE ? nativeLexical(parseFloat(value), coerce)[0] : value, coerce);
      }
      const lang = this.ctx.language;
      return lang === undefined ? ntLiteral(value, XSD_STRING) : ntLangLiteral(value, lang);
    }
    if (typeof value === "number" || typeof value === "boolean") {
      const dt = coerce !== undefined && coerce[0] !== "@" ? coerce : undefined;
      const [lex, type] = nativeLexical(value, dt);
      return ntLiteral(lex, type);
    }
    if (value === null || Array.isArray(value)) return null;
    return this.objectOf(value, def);
  }

  private objectOf(obj: { [k: string]: JsonValue }, def: CompiledTerm | undefined): string | null {
    let v: JsonValue | undefined;
    let type: string | undefined;
    let lang: string | undefined;
    let list: JsonValue | undefined;
    for (const k of Object.keys(obj)) {
      const kw = k.charCodeAt(0) === 64 ? k : this.ctx.expandIri(k, true);
      if (kw === "@value") v = obj[k];
      else if (kw === "@type" && typeof obj[k] === "string") type = obj[k] as string;
      else if (kw === "@language" && typeof obj[k] === "string") lang = (obj[k] as string).toLowerCase();
      else if (kw === "@list") list = obj[k];
    }
    if (list !== undefined) return this.list(Array.isArray(list) ? list : [list], def);
    if (v === undefined) return this.node(obj);
    if (v === null) return null;
    const dt = type === undefined || type === "@json" ? type : (this.ctx.expandIri(type, true) ?? type);
    if (dt === "@json") return ntLiteral(canonicalJson(v), RDF_JSON);
    if (typeof v === "number" || typeof v === "boolean") {
      const [lex, t] = nativeLexical(v, dt);
      return ntLiteral(lex, t);
    }
    if (typeof v !== "string") return null;
    if (lang !== undefined) return ntLangLiteral(v, lang);
    if (dt === XSD_DOUBLE) return ntLiteral(nativeLexical(parseFloat(v), dt)[0], dt);
    return ntLiteral(v, dt ?? XSD_STRING);
  }
}
