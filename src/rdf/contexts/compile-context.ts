import type { CompiledContext, TermDefinition } from "./compiled-context";

/**
 * JSON-LD 1.1 context processing, done once per context list (JSON-LD 1.1 API §4.1 Context
 * Processing, §4.2 Create Term Definition, §4.3 Inverse Context, §4.5 IRI Compaction, §4.6 Term
 * Selection), behaving like jsonld.js 9 for the features NGSI-LD contexts use (ETSI GS CIM 009 §5.5.7).
 * Supported: terms, prefixes/compact IRIs, absolute-IRI keys, @vocab, @base (stored), @language
 * (default), @version, @protected, @type coercion, @container. Unsupported and rejected with an
 * Error: scoped contexts (@context in a term), @reverse, @nest, @import, @direction, unresolved URLs.
 */

/** A compiled term with the flags compaction needs (JSON-LD 1.1 API §4.2). */
export interface CompiledTerm extends TermDefinition {
  prefix: boolean;
  protected: boolean;
  hasColon: boolean;
}

/** A term-selection query (JSON-LD 1.1 API §4.6): containers, the type/language axis, preferences. */
export interface TermQuery {
  readonly containers: readonly string[];
  readonly axis: "@type" | "@language" | "@any";
  readonly prefs: readonly string[];
}

type Slot = Record<"@type" | "@language" | "@any", Map<string, string>>;
const KEYWORD = /^@[a-zA-Z]+$/;
const CACHE_LIMIT = 50_000;
const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+\-.]*|_):[^\s]*$/;
const GEN_DELIM = new Set([":", "/", "?", "#", "[", "]", "@"]);
const UNSUPPORTED = ["@context", "@reverse", "@nest", "@index"];

/** Shortest first, then lexicographically least (JSON-LD 1.1 API §4.3 step 3). */
export function shortestLeast(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** An immutable, compiled active context (JSON-LD 1.1 API §4.1). */
export class CompiledJsonLdContext implements CompiledContext {
  readonly vocab: string | undefined;
  readonly language: string | undefined;
  private readonly inverse = new Map<string, Map<string, Slot>>();
  private readonly curies: { iri: string; terms: string[] }[] = [];
  private readonly iriCache = new Map<string, string>();
  private readonly vocabCache = new Map<string, string | null>();
  private readonly keyCache = new Map<string, string | null>();
  private readonly termCache = new Map<TermQuery, Map<string, string>>();
  private readonly idCache = new Map<string, string>();

  constructor(
    readonly key: string,
    readonly terms: ReadonlyMap<string, CompiledTerm | null>,
    vocab: string | undefined,
    language: string | undefined,
  ) {
    this.vocab = vocab;
    this.language = language;
    this.buildInverse();
  }

  /** The definition of a term (JSON-LD 1.1 §4.2), or undefined. */
  definition(term: string): CompiledTerm | undefined {
    return this.terms.get(term) ?? undefined;
  }

  /** IRI expansion relative to vocab (JSON-LD 1.1 API §5.2, vocab = true). */
  expandTerm(term: string): string {
    return this.expandIri(term, true) ?? term;
  }

  /** IRI expansion (JSON-LD 1.1 API §5.2); null when the term is explicitly mapped to null. */
  expandIri(value: string, vocab: boolean): string | null {
    if (!vocab) return expandIriIn(this.terms, this.vocab, value, false);
    let r = this.vocabCache.get(value);
    if (r === undefined) {
      r = expandIriIn(this.terms, this.vocab, value, true);
      if (this.vocabCache.size >= CACHE_LIMIT) this.vocabCache.clear();
      this.vocabCache.set(value, r);
    }
    return r;
  }

  /**
   * Vocab-relative expansion of a member key or type (cached): the keyword or absolute IRI it
   * names, or null when JSON-LD expansion drops it (null mapping, relative IRI, blank node).
   */
  vocabIri(key: string): string | null {
    let r = this.keyCache.get(key);
    if (r === undefined) {
      const iri = this.expandIri(key, true);
      r = iri !== null && (isKeyword(iri) || (ABSOLUTE.test(iri) && !iri.startsWith("_:"))) ? iri : null;
      if (this.keyCache.size >= CACHE_LIMIT) this.keyCache.clear();
      this.keyCache.set(key, r);
    }
    return r;
  }

  /** IRI compaction with no value (JSON-LD 1.1 API §4.5), vocab-relative, as for `@type` values. */
  compactIri(iri: string): string {
    let r = this.iriCache.get(iri);
    if (r === undefined) {
      r = this.compactIriFull(iri, true, null);
      if (this.iriCache.size >= CACHE_LIMIT) this.iriCache.clear();
      this.iriCache.set(iri, r);
    }
    return r;
  }

  /** The alias of a keyword, or the keyword itself (JSON-LD 1.1 API §4.5 step 2). */
  alias(keyword: string): string {
    return this.inverse.get(keyword)?.get("@none")?.["@type"].get("@none") ?? keyword;
  }

  /** IRI compaction relative to the document (vocab = false), as for `@id` values. */
  compactId(iri: string): string {
    let r = this.idCache.get(iri);
    if (r === undefined) {
      r = this.compactIriFull(iri, false, null);
      if (this.idCache.size >= CACHE_LIMIT) this.idCache.clear();
      this.idCache.set(iri, r);
    }
    return r;
  }

  /**
   * IRI compaction for a property with a value (JSON-LD 1.1 API §4.5 with §4.6 term selection);
   * `q` must be identity-stable (memoized by the caller) because results are cached per query.
   */
  compactProperty(iri: string, q: TermQuery): string {
    let byIri = this.termCache.get(q);
    if (byIri === undefined) this.termCache.set(q, (byIri = new Map()));
    let t = byIri.get(iri);
    if (t === undefined) {
      t = this.selectTerm(iri, q) ?? this.compactIriFull(iri, true, q);
      if (byIri.size >= CACHE_LIMIT) byIri.clear();
      byIri.set(iri, t);
    }
    return t;
  }

  private selectTerm(iri: string, q: TermQuery): string | null {
    const map = this.inverse.get(iri);
    if (map === undefined) return null;
    for (const c of q.containers) {
      const slot = map.get(c);
      if (slot === undefined) continue;
      const byAxis = slot[q.axis];
      for (const p of q.prefs) {
        const t = byAxis.get(p);
        if (t !== undefined) return t;
      }
    }
    return null;
  }

  private compactIriFull(iri: string, vocab: boolean, q: TermQuery | null): string {
    if (vocab) {
      const t = this.selectTerm(iri, q ?? NO_VALUE_QUERY);
      if (t !== null) return t;
      const v = this.vocab;
      if (v !== undefined && iri.startsWith(v) && iri !== v) {
        const suffix = iri.slice(v.length);
        if (!this.terms.has(suffix)) return suffix;
      }
    }
    let choice: string | null = null;
    for (const { iri: p, terms } of this.curies) {
      if (p.length >= iri.length || !iri.startsWith(p)) continue;
      for (const term of terms) {
        if (this.terms.get(term)?.prefix !== true) continue;
        const curie = `${term}:${iri.slice(p.length)}`;
        const has = this.terms.get(curie);
        const usable = has === undefined || (q === null && has !== null && has.iri === iri);
        if (usable && (choice === null || shortestLeast(curie, choice) < 0)) choice = curie;
      }
    }
    if (choice !== null) return choice;
    for (const [term, td] of this.terms) {
      if (td && td.prefix && iri.startsWith(`${term}:`)) {
        throw new Error(`JSON-LD compact error: absolute IRI "${iri}" confused with prefix "${term}"`);
      }
    }
    return iri;
  }

  private buildInverse(): void {
    const names = [...this.terms.keys()].sort(shortestLeast);
    const byIri = new Map<string, string[]>();
    for (const term of names) {
      const m = this.terms.get(term);
      if (!m) continue;
      let entry = this.inverse.get(m.iri);
      if (entry === undefined) {
        this.inverse.set(m.iri, (entry = new Map()));
        if (!isKeyword(m.iri) && !m.hasColon) byIri.set(m.iri, [term]);
      } else if (!isKeyword(m.iri) && !m.hasColon) byIri.get(m.iri)?.push(term);
      const c = m.container ?? "@none";
      let slot = entry.get(c);
      if (slot === undefined)
        entry.set(c, (slot = { "@type": new Map(), "@language": new Map(), "@any": new Map() }));
      add(slot["@any"], "@none", term);
      if (m.coerce === "@none") {
        add(slot["@language"], "@none", term);
        add(slot["@type"], "@none", term);
      } else if (m.coerce !== undefined) add(slot["@type"], m.coerce, term);
      else {
        add(slot["@language"], this.language ?? "@none", term);
        add(slot["@language"], "@none", term);
        add(slot["@type"], "@none", term);
      }
    }
    for (const [iri, terms] of byIri) this.curies.push({ iri, terms });
  }
}

function add(m: Map<string, string>, k: string, term: string): void {
  if (!m.has(k)) m.set(k, term);
}

const NO_VALUE_QUERY: TermQuery = { containers: ["@set", "@none"], axis: "@type", prefs: ["@id", "@none"] };

const KEYWORDS = new Set(
  "@base @container @context @direction @graph @id @import @included @index @json @language @list @nest @none @prefix @propagate @protected @reverse @set @type @value @version @vocab".split(
    " ",
  ),
);

/** True for a JSON-LD 1.1 keyword (JSON-LD 1.1 §1.7). */
export function isKeyword(s: string): boolean {
  return KEYWORDS.has(s);
}

function expandIriIn(
  terms: ReadonlyMap<string, CompiledTerm | null>,
  vocabIri: string | undefined,
  value: string,
  vocab: boolean,
): string | null {
  if (value.charCodeAt(0) === 64 && KEYWORD.test(value)) return isKeyword(value) ? value : null;
  if (vocab) {
    const m = terms.get(value);
    if (m === null) return null;
    if (m !== undefined) return m.iri;
  }
  const colon = value.indexOf(":");
  if (colon > 0) {
    const prefix = value.slice(0, colon);
    const suffix = value.slice(colon + 1);
    if (prefix === "_" || suffix.startsWith("//")) return value;
    const m = terms.get(prefix);
    if (m && m.prefix) return m.iri + suffix;
    if (ABSOLUTE.test(value)) return value;
  }
  return vocab && vocabIri !== undefined ? vocabIri + value : value;
}

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
type Local = Record<string, Json>;

/**
 * Compiles the ordered, already-resolved context objects (each a context or a document with
 * `@context`; the NGSI-LD core context last) into one active context (JSON-LD 1.1 API §4.1).
 * Redefining a protected term differently throws, as jsonld.js does (JSON-LD 1.1 §4.1.11).
 */
export function compileContext(contexts: object[]): CompiledJsonLdContext {
  const st: State = { terms: new Map(), vocab: undefined, language: undefined };
  for (const c of contexts) applyContext(st, c as Json);
  return new CompiledJsonLdContext(JSON.stringify(contexts), st.terms, st.vocab, st.language);
}

interface State {
  terms: Map<string, CompiledTerm | null>;
  vocab: string | undefined;
  language: string | undefined;
}

function applyContext(st: State, c: Json): void {
  if (c === null) {
    if ([...st.terms.values()].some((t) => t?.protected))
      throw new Error("JSON-LD: invalid context nullification");
    st.terms.clear();
    st.vocab = st.language = undefined;
    return;
  }
  if (Array.isArray(c)) return c.forEach((x) => applyContext(st, x));
  if (typeof c !== "object") throw new Error(`JSON-LD: unresolved context ${JSON.stringify(c)}`);
  if ("@context" in c) return applyContext(st, c["@context"]);
  for (const k of ["@import", "@direction"]) if (k in c) throw new Error(`JSON-LD: ${k} is not supported`);
  if ("@version" in c && c["@version"] !== 1.1) throw new Error("JSON-LD: invalid @version value");
  if ("@vocab" in c) {
    const v = c["@vocab"];
    if (v === null) st.vocab = undefined;
    else if (typeof v !== "string") throw new Error("JSON-LD: invalid vocab mapping");
    else st.vocab = expandWith(st, c, v, true, new Map()) ?? undefined;
  }
  if ("@language" in c) {
    const l = c["@language"];
    st.language = typeof l === "string" ? l.toLowerCase() : undefined;
  }
  const defined = new Map<string, boolean>();
  const prot = c["@protected"] === true;
  for (const term of Object.keys(c)) if (!isKeyword(term)) define(st, c, term, defined, prot);
}

function expandWith(
  st: State,
  local: Local,
  value: string,
  vocab: boolean,
  defined: Map<string, boolean>,
): string | null {
  if (KEYWORD.test(value)) return isKeyword(value) ? value : null;
  if (Object.prototype.hasOwnProperty.call(local, value) && !defined.get(value))
    define(st, local, value, defined, local["@protected"] === true);
  const colon = value.indexOf(":");
  if (colon > 0) {
    const prefix = value.slice(0, colon);
    if (Object.prototype.hasOwnProperty.call(local, prefix))
      define(st, local, prefix, defined, local["@protected"] === true);
  }
  return expandIriIn(st.terms, st.vocab, value, vocab);
}

function define(st: State, local: Local, term: string, defined: Map<string, boolean>, prot: boolean): void {
  const state = defined.get(term);
  if (state === true) return;
  if (state === false) throw new Error(`JSON-LD: cyclic IRI mapping for "${term}"`);
  defined.set(term, false);
  const raw = local[term];
  const previous = st.terms.get(term);
  st.terms.delete(term);
  const def = buildTerm(st, local, term, raw, defined, prot);
  if (previous && previous.protected && !sameTerm(previous, def)) {
    st.terms.set(term, previous);
    throw new Error(`JSON-LD: protected term redefinition of "${term}"`);
  }
  if (previous && previous.protected && def) def.protected = true;
  st.terms.set(term, def);
  defined.set(term, true);
}

function buildTerm(
  st: State,
  local: Local,
  term: string,
  raw: Json,
  defined: Map<string, boolean>,
  prot: boolean,
): CompiledTerm | null {
  if (raw === null) return null;
  const simple = typeof raw === "string";
  const v: Local = simple ? { "@id": raw } : (raw as Local);
  if (typeof v !== "object" || Array.isArray(v))
    throw new Error(`JSON-LD: invalid term definition for "${term}"`);
  for (const k of UNSUPPORTED)
    if (k in v) throw new Error(`JSON-LD: ${k} in term definitions is not supported ("${term}")`);
  const hasColon = term.includes(":");
  let iri: string | null;
  const id = v["@id"];
  if (id !== undefined && id !== term) {
    if (id === null) return null;
    if (typeof id !== "string") throw new Error(`JSON-LD: invalid IRI mapping for "${term}"`);
    iri = expandWith(st, local, id, true, defined);
  } else if (hasColon) {
    iri = expandWith(st, local, term, true, defined);
  } else if (st.vocab !== undefined) iri = st.vocab + term;
  else throw new Error(`JSON-LD: invalid IRI mapping for "${term}" (no @vocab)`);
  if (iri === null || (!isKeyword(iri) && !ABSOLUTE.test(iri)))
    throw new Error(`JSON-LD: invalid IRI mapping for "${term}"`);
  const def: CompiledTerm = {
    iri,
    prefix: false,
    protected: v["@protected"] === undefined ? prot : v["@protected"] === true,
    hasColon,
  };
  if (simple && !hasColon && !term.includes("/"))
    def.prefix = GEN_DELIM.has(iri[iri.length - 1]) || iri.startsWith("_:");
  if (typeof v["@prefix"] === "boolean") def.prefix = v["@prefix"];
  const type = v["@type"];
  if (type !== undefined) {
    if (typeof type !== "string") throw new Error(`JSON-LD: invalid type mapping for "${term}"`);
    const t = expandWith(st, local, type, true, defined);
    if (t === null || (!["@id", "@vocab", "@json", "@none"].includes(t) && !ABSOLUTE.test(t)))
      throw new Error(`JSON-LD: invalid type mapping for "${term}"`);
    def.coerce = t;
  }
  const container = v["@container"];
  if (container !== undefined && container !== null) {
    const list = (Array.isArray(container) ? container : [container]).map(String).sort();
    def.container = list.join("");
  }
  return def;
}

function sameTerm(a: CompiledTerm, b: CompiledTerm | null): boolean {
  return (
    b !== null &&
    a.iri === b.iri &&
    a.coerce === b.coerce &&
    a.container === b.container &&
    a.prefix === b.prefix
  );
}
