import type { EntityFilter } from "../query/query-filter";
import type { TypeExpr } from "../query/type-expression";
import { modeOf } from "./registration";
import type { CompiledRegistration } from "./registration-match";

/** Members of an entity body that are not attributes: every part keeps them. */
export const ENTITY_META = new Set(["id", "type", "@context", "scope"]);

/** One entity write divided between the registered sources and the local store. */
export interface WriteSplit {
  /** What each source gets: the body cut to the registration's attributes (undefined = no body). */
  parts: { cr: CompiledRegistration; body: Record<string, unknown> | undefined }[];
  /** The body the local store gets: without the attributes exclusive and redirect sources hold. */
  localBody: Record<string, unknown> | undefined;
  /** False when the sources take the whole write. */
  localHasWork: boolean;
}

/** What a write is, beside its body. */
export interface WriteShape {
  /** The one attribute the request names in its path, if any. */
  attr?: string;
  /** The write may create the entity (create, upsert): an entity with no attributes is still work. */
  creates: boolean;
}

/**
 * Divides one entity write between registered sources (ETSI GS CIM 009 v1.8 §4.3.6.2, §4.3.6.3):
 * each non-auxiliary source gets the attributes its registration names (all of them when it names
 * none); exclusive and redirect registrations take their attributes away from the local write, and a
 * redirect or exclusive registration naming no attributes takes the whole write. `expand` expands a
 * term of the body with the request's @context.
 */
export function splitWrite(
  writers: CompiledRegistration[],
  body: Record<string, unknown> | undefined,
  expand: (term: string) => string,
  shape: WriteShape,
): WriteSplit {
  const taken = new Set<string>();
  let allTaken = false;
  const parts = writers.map((cr) => {
    const mode = modeOf(cr.record.reg);
    const own = mode === "exclusive" || mode === "redirect";
    const names = cr.infos.every((i) => i.names) ? cr.infos.flatMap((i) => [...i.names!]) : undefined;
    let part = body;
    if (body && names) {
      const keep = (k: string) => ENTITY_META.has(k) || names.includes(expand(k));
      part = Object.fromEntries(Object.entries(body).filter(([k]) => keep(k)));
      if (own) for (const k of Object.keys(body)) if (!ENTITY_META.has(k) && keep(k)) taken.add(k);
    } else if (own && !names) allTaken = true;
    if (own && shape.attr && (!names || names.includes(expand(shape.attr)))) allTaken = true;
    return { cr, body: part };
  });
  const localBody =
    body && taken.size ? Object.fromEntries(Object.entries(body).filter(([k]) => !taken.has(k))) : body;
  const noAttrsLeft = !!localBody && Object.keys(localBody).every((k) => ENTITY_META.has(k));
  const localHasWork = !allTaken && !(noAttrsLeft && (!shape.creates || taken.size > 0));
  return { parts, localBody, localHasWork };
}

/** The registrations among `crs` that take writes (auxiliary ones never do, §4.3.6.2). */
export const writersOf = (crs: CompiledRegistration[]) =>
  crs.filter((cr) => modeOf(cr.record.reg) !== "auxiliary");

/**
 * The entity filter a write is matched with against registrations: its id, its types (expanded) and,
 * when it names attributes, those attributes (expanded).
 */
export function writeFilter(
  id: string,
  types: string[] | undefined,
  names: string[],
  expand: (term: string) => string,
): EntityFilter {
  const typeExpr: TypeExpr | undefined = types && {
    kind: "or",
    items: types.map((leaf) => ({ kind: "leaf", leaf })),
  };
  const filter: EntityFilter = { selectors: [{ ids: [id], types: typeExpr }] };
  if (names.length) filter.attrs = { names, iris: names.map(expand) };
  return filter;
}

/** The attribute names of an entity body. */
export const attributeNamesOf = (body: Record<string, unknown> | undefined): string[] =>
  body ? Object.keys(body).filter((k) => !ENTITY_META.has(k)) : [];
