import type { CompiledJsonLdContext, TermQuery } from "../../rdf/contexts/compile-context";
import type { XValue } from "./expanded";

/**
 * The term-selection query for one expanded value (JSON-LD 1.1 API §4.5 IRI Compaction steps 2.1–2.9,
 * as jsonld.js 9 orders containers and preferences). Queries are memoized by signature so the
 * context can cache term choices per query object.
 */
const memo = new Map<string, TermQuery>();

function query(
  sig: string,
  containers: readonly string[],
  axis: TermQuery["axis"],
  prefs: readonly string[],
): TermQuery {
  let q = memo.get(sig);
  if (q === undefined) memo.set(sig, (q = { containers, axis, prefs }));
  return q;
}

const NODE_CONTAINERS = ["@id", "@id@set", "@type", "@set@type", "@set", "@none", "@index", "@index@set"];
const LIST_CONTAINERS = ["@id", "@id@set", "@type", "@set@type", "@list", "@none", "@index", "@index@set"];
const LANG_CONTAINERS = ["@language", "@language@set", "@set", "@none", "@index", "@index@set"];
const TYPED_CONTAINERS = ["@set", "@none", "@index", "@index@set"];
const PLAIN_CONTAINERS = ["@set", "@none", "@index", "@index@set", "@language", "@language@set"];

/** The query for `v` under `ctx` (the ref case asks whether the id compacts to a term). */
export function termQuery(v: XValue, ctx: CompiledJsonLdContext): TermQuery {
  switch (v.k) {
    case "lit":
      if (v.l !== undefined)
        return byKey(LANG, v.l, () => ({
          containers: LANG_CONTAINERS,
          axis: "@language",
          prefs: [v.l ?? "", "@none"],
        }));
      if (v.t !== undefined) return nativeQuery(v.t);
      return query("plain", PLAIN_CONTAINERS, "@language", ["@null", "@none"]);
    case "node":
      return v.id === undefined
        ? query("node", NODE_CONTAINERS, "@type", ["@id", "@none"])
        : refQuery(v.id, ctx);
    case "ref":
      return refQuery(v.id, ctx);
    case "list":
      return listQuery(v.items);
  }
}

/** For a native literal: the query preferring a term coerced to its original datatype. */
export function nativeQuery(datatype: string): TermQuery {
  return byKey(TYPED, datatype, () => ({
    containers: TYPED_CONTAINERS,
    axis: "@type",
    prefs: [datatype, "@none"],
  }));
}

const LANG = new Map<string, TermQuery>();
const TYPED = new Map<string, TermQuery>();

function byKey(m: Map<string, TermQuery>, k: string, make: () => TermQuery): TermQuery {
  let q = m.get(k);
  if (q === undefined) m.set(k, (q = make()));
  return q;
}

function refQuery(id: string, ctx: CompiledJsonLdContext): TermQuery {
  const term = ctx.compactIri(id);
  const vocabFirst = ctx.definition(term)?.iri === id;
  return vocabFirst
    ? query("refv", NODE_CONTAINERS, "@type", ["@vocab", "@id", "@none"])
    : query("refi", NODE_CONTAINERS, "@type", ["@id", "@vocab", "@none"]);
}

function listQuery(items: XValue[]): TermQuery {
  if (items.length === 0) return query("list-empty", LIST_CONTAINERS, "@any", ["@none", "@none"]);
  let lang: string | null = null;
  let type: string | null = null;
  for (const item of items) {
    let itemLang = "@none";
    let itemType = "@none";
    const isValue = item.k === "lit";
    if (item.k === "lit") {
      if (item.l !== undefined) itemLang = item.l;
      else if (item.t !== undefined) itemType = item.t;
      else itemLang = "@null";
    } else itemType = "@id";
    if (lang === null) lang = itemLang;
    else if (itemLang !== lang && isValue) lang = "@none";
    if (type === null) type = itemType;
    else if (itemType !== type) type = "@none";
    if (lang === "@none" && type === "@none") break;
  }
  const l = lang ?? "@none";
  const t = type ?? "@none";
  if (t !== "@none") return query(`list-t${t}`, LIST_CONTAINERS, "@type", [t, "@none"]);
  return query(`list-l${l}`, LIST_CONTAINERS, "@language", [l, "@none"]);
}
