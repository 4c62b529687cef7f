import { ATTRIBUTE_META_MEMBERS, ATTRIBUTE_VALUE_MEMBER } from "../model/attribute-kinds";
import { attributeNames, datasetIdOf, Entity, instancesOf } from "../model/entity";
import type { AttributeInstance } from "../model/normalize-attribute";
import { pickLanguage } from "./language";
import type { RenderOptions } from "./render-options";

const SYS = new Set(["createdAt", "modifiedAt"]);

/**
 * Renders a stored entity for a response (ETSI GS CIM 009 v1.8 §4.5.1, §4.5.3, §4.5.x concise,
 * §5.7.1 `attrs`/`pick`/`omit`/`lang`/`sysAttrs`, §5.7.2 `datasetId`). The input is not modified.
 */
export function renderEntity(e: Entity, opts: RenderOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keep = (member: string) => keepsMember(opts, member);
  if (keep("id")) out.id = e.id;
  if (keep("type")) out.type = e.type;
  if (e.scope !== undefined && keep("scope")) out.scope = e.scope;
  if (opts.sysAttrs) {
    if (e.createdAt) out.createdAt = e.createdAt;
    if (e.modifiedAt) out.modifiedAt = e.modifiedAt;
  }
  for (const name of attributeNames(e)) {
    if (opts.attrs && !opts.attrs.has(name)) continue;
    if (!keep(name)) continue;
    const kept = opts.datasetIds
      ? instancesOf(e, name).filter((i) => inDatasets(i, opts.datasetIds))
      : instancesOf(e, name);
    if (kept.length === 0) continue;
    const shown = kept.map((i) => renderInstance(i, opts));
    if (shown.length === 1) out[name] = shown[0];
    else out[name] = opts.format === "keyValues" ? datasetMap(kept, shown) : shown;
  }
  return out;
}

/**
 * The simplified form of a multi-attribute (ETSI GS CIM 009 v1.8 §4.5.3): `{"dataset": {...}}`, each
 * instance's value under its datasetId, the default instance's under `@none`.
 */
function datasetMap(kept: AttributeInstance[], shown: unknown[]): { dataset: Record<string, unknown> } {
  const dataset: Record<string, unknown> = {};
  kept.forEach((i, k) => (dataset[datasetIdOf(i) ?? "@none"] = shown[k]));
  return { dataset };
}

/** True if `pick`/`omit` keep `member` (§4.21; an omit list's nested parts do not omit the member). */
export function keepsMember(opts: RenderOptions, member: string): boolean {
  if (opts.pick && !opts.pick.names.has(member)) return false;
  return !opts.omit || !opts.omit.names.has(member) || opts.omit.nested.has(member);
}

/** True if the instance's datasetId (`@none` for the default instance) is in `ids` (§4.5.5). */
function inDatasets(i: AttributeInstance, ids: ReadonlySet<string> | undefined): boolean {
  return !ids || ids.has(datasetIdOf(i) ?? "@none");
}

/** Renders one attribute instance in the requested format. */
export function renderInstance(inst: AttributeInstance, opts: RenderOptions): unknown {
  let i = inst;
  if (opts.lang && i.type === "LanguageProperty") {
    const { value, lang } = pickLanguage(i.languageMap as Record<string, unknown> | undefined, opts.lang);
    const { languageMap: _m, ...rest } = i;
    i = { ...rest, type: "Property", value, ...(lang && lang !== "@none" ? { lang } : {}) };
  }
  if (opts.format === "keyValues") return i[ATTRIBUTE_VALUE_MEMBER[i.type]];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(i)) {
    if (SYS.has(k) && !opts.sysAttrs) continue;
    if (ATTRIBUTE_META_MEMBERS.has(k)) out[k] = v;
    else {
      const subs = (Array.isArray(v) ? v : [v]).map((s) => renderInstance(s as AttributeInstance, opts));
      out[k] = subs.length === 1 ? subs[0] : subs;
    }
  }
  return opts.format === "concise" ? concise(out) : out;
}

/** The concise form of a rendered instance (§4.5.x): no `type`; a bare value where nothing else is left. */
function concise(o: Record<string, unknown>): unknown {
  const { type, ...rest } = o;
  const keys = Object.keys(rest);
  if (type === "Property" && keys.length === 1 && keys[0] === "value") {
    const v = rest.value;
    if (typeof v !== "object" || v === null) return v;
  }
  if (type === "GeoProperty" && keys.length === 1) return rest.value;
  return rest;
}
