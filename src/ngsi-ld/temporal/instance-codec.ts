import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { ATTRIBUTE_META_MEMBERS } from "../model/attribute-kinds";
import { epochMs } from "../model/datetime";
import type { AttributeInstance } from "../model/normalize-attribute";
import type { RowTuple } from "./history-record";
import type { TemporalIndex } from "./temporal-index";
import type { Series } from "./series";

/** Members of an instance the history keeps in its columns, not in the template. */
const COLUMN_MEMBERS = new Set(["observedAt", "createdAt", "modifiedAt", "instanceId"]);

/** The instanceId IRI of instance number `n` (ETSI GS CIM 009 v1.8 §4.5.7: a URI unique per instance). */
export const instanceIdOf = (n: number): string => `urn:ngsi-ld:attribute:instance:${n}`;

/** The instance number in an instanceId made by {@link instanceIdOf}, or undefined. */
export function instanceNumber(id: string): number | undefined {
  const m = /^urn:ngsi-ld:attribute:instance:(\d+)$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

/**
 * Renames the sub-attributes of an instance (recursively) and its `vocab` values with `f` (expand or
 * compact with a context, JSON-LD 1.1 §4.1 / §4.3); value members are left as they are.
 */
function mapNames(v: Record<string, unknown>, f: (n: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) mapMember(v, k, f, out);
  return out;
}

/** Member `k` of instance `v` into `out`, renamed as {@link mapNames} does. */
function mapMember(
  v: Record<string, unknown>,
  k: string,
  f: (n: string) => string,
  out: Record<string, unknown>,
): void {
  const x = v[k];
  if (k === "vocab" && v.type === "VocabProperty") {
    out[k] = Array.isArray(x)
      ? x.map((s) => (typeof s === "string" ? f(s) : s))
      : typeof x === "string"
        ? f(x)
        : x;
  } else if (ATTRIBUTE_META_MEMBERS.has(k)) out[k] = x;
  else out[f(k)] = subs(x, f);
}

function subs(x: unknown, f: (n: string) => string): unknown {
  if (Array.isArray(x)) return x.map((y) => subs(y, f));
  return typeof x === "object" && x !== null ? mapNames(x as Record<string, unknown>, f) : x;
}

const compacted = new WeakMap<CompiledContext, Map<number, Record<string, unknown>>>();

/** Template `rest` with names compacted by `ctx`, cached per context (templates are few and shared). */
function compactedTemplate(
  index: TemporalIndex,
  rest: number,
  ctx: CompiledContext,
): Record<string, unknown> {
  let m = compacted.get(ctx);
  if (!m) compacted.set(ctx, (m = new Map()));
  let t = m.get(rest);
  if (!t) m.set(rest, (t = mapNames(index.interner.object(rest), (n) => ctx.compactIri(n))));
  return t;
}

/** The last two times converted: an entity's instances share their createdAt/modifiedAt and mostly observedAt. */
const recent: [string, number, string, number] = ["", NaN, "", NaN];

function ms(v: unknown): number | undefined {
  if (typeof v !== "string") return undefined;
  if (v === recent[0]) return recent[1];
  if (v === recent[2]) return recent[3];
  const t = epochMs(v);
  recent[2] = recent[0];
  recent[3] = recent[1];
  recent[0] = v;
  recent[1] = t;
  return t;
}

/**
 * The log tuple of one attribute instance compacted with `ctx`: names expanded,
 * times as epoch ms (`createdAt`/`modifiedAt` default to `now`), a numeric `value` in its own column.
 */
export function instanceToTuple(
  attrIri: string,
  inst: AttributeInstance,
  ctx: CompiledContext,
  iid: number,
  now: number,
): RowTuple {
  const num = inst.type === "Property" && typeof inst.value === "number" ? inst.value : null;
  const rest: Record<string, unknown> = {};
  const expand = (n: string) => ctx.expandTerm(n);
  for (const k of Object.keys(inst)) {
    if (!COLUMN_MEMBERS.has(k) && (num === null || k !== "value")) mapMember(inst, k, expand, rest);
  }
  const created = ms(inst.createdAt) ?? now;
  return [
    attrIri,
    iid,
    ms(inst.observedAt) ?? null,
    created,
    ms(inst.modifiedAt) ?? now,
    num,
    JSON.stringify(rest),
  ];
}

/** An epoch-ms time as an NGSI-LD DateTime in UTC, without a zero millisecond part (`2020-08-01T12:03:00Z`). */
export function isoTime(t: number): string {
  const s = new Date(t).toISOString();
  return s.endsWith(".000Z") ? s.slice(0, -5) + "Z" : s;
}
const iso = isoTime;

/**
 * Row `i` of `s` as a normalized attribute instance compacted with `ctx` (§4.5.9 temporal
 * representation): the template, the value, `observedAt`, `instanceId`, `deletedAt` when the instance
 * records a deletion (its modifiedAt; template member `deletedAt: true`), and with `sysAttrs`
 * `createdAt`/`modifiedAt`.
 */
export function rowToInstance(
  index: TemporalIndex,
  s: Series,
  i: number,
  ctx: CompiledContext,
  sysAttrs: boolean,
): AttributeInstance {
  const tpl = compactedTemplate(index, s.rest(i), ctx);
  const out: Record<string, unknown> = { type: tpl.type };
  if (!Number.isNaN(s.num(i))) out.value = s.num(i);
  for (const [k, v] of Object.entries(tpl)) if (k !== "type" && k !== "deletedAt") out[k] = v;
  if (!Number.isNaN(s.obs(i))) out.observedAt = iso(s.obs(i));
  out.instanceId = instanceIdOf(s.iid(i));
  if (tpl.deletedAt === true) out.deletedAt = iso(s.modified(i));
  if (sysAttrs) {
    out.createdAt = iso(s.created(i));
    out.modifiedAt = iso(s.modified(i));
  }
  return out as AttributeInstance;
}

/**
 * The value of row `i` as the simplified temporal representation lists it (§4.5.10): the value or object
 * itself; for LanguageProperty, VocabProperty and JsonProperty an object with its `languageMap`, `vocab`
 * or `json` member (as the ETSI suite expects, 020_12, 020_15, 020_16).
 */
export function rowValue(index: TemporalIndex, s: Series, i: number, ctx: CompiledContext): unknown {
  if (!Number.isNaN(s.num(i))) return s.num(i);
  const tpl = index.interner.object(s.rest(i));
  switch (tpl.type) {
    case "Relationship":
      return tpl.object;
    case "LanguageProperty":
      return { languageMap: tpl.languageMap };
    case "VocabProperty":
      return { vocab: (mapNames(tpl, (n) => ctx.compactIri(n)) as { vocab: unknown }).vocab };
    case "JsonProperty":
      return { json: tpl.json };
    case "ListProperty":
      return tpl.valueList;
    case "ListRelationship":
      return tpl.objectList;
    default:
      return tpl.value;
  }
}
