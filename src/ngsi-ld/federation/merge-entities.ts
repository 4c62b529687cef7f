import type { Mode } from "./registration";

/** An entity as an answer shows it (any format). */
export type ShownEntity = Record<string, unknown> & { id: string };

/** The answer of one context source, with what its registration says about it. */
export interface SourceAnswer {
  mode: Mode;
  entities: ShownEntity[];
  /** The attribute names the registration provides, as the answer names them (undefined = all). */
  names?: Set<string>;
}

const ENTITY_MEMBERS = new Set(["id", "type", "@context", "scope", "createdAt", "modifiedAt", "deletedAt"]);

/** observedAt of a normalized attribute, if it shows one. */
function observedAt(v: unknown): number | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const t = (v as { observedAt?: unknown }).observedAt;
  return typeof t === "string" ? Date.parse(t) : undefined;
}

/**
 * Merges the answers of the registered context sources into the local answer (ETSI GS CIM 009 v1.8
 * §4.3.6.1 registration modes, §4.3.6.2 merging of entities):
 * - `exclusive` and `redirect`: the source alone holds the registered attributes (all of them when the
 *   registration names none), so the local copies of those give way to the source's; two such sources of
 *   a whole entity (two redirect registrations) each add what the other lacks;
 * - `inclusive`: the attributes of both are kept; when both hold one, the instance with the later
 *   `observedAt` wins, else the local one stays;
 * - `auxiliary`: the source only fills in entities and attributes no other answer holds.
 * Entities only a source holds follow the local ones in the order they came.
 */
export function mergeEntities(local: ShownEntity[], answers: SourceAnswer[]): ShownEntity[] {
  const byId = new Map<string, ShownEntity>();
  for (const e of local) byId.set(e.id, { ...e });
  // entities a source holding all their attributes has answered: a second such source adds to it
  const whole = new Set<string>();
  const order = (m: Mode) => (m === "exclusive" || m === "redirect" ? 0 : m === "inclusive" ? 1 : 2);
  for (const a of [...answers].sort((x, y) => order(x.mode) - order(y.mode))) {
    for (const r of a.entities) {
      const l = byId.get(r.id);
      if (!l) {
        byId.set(r.id, { ...r });
        if ((a.mode === "exclusive" || a.mode === "redirect") && !a.names) whole.add(r.id);
        continue;
      }
      if (a.mode === "exclusive" || a.mode === "redirect") {
        if (!a.names && !whole.has(r.id)) {
          byId.set(r.id, { ...r });
          whole.add(r.id);
          continue;
        }
        for (const n of a.names ?? []) delete l[n];
      }
      const own = a.mode === "exclusive" || a.mode === "redirect";
      for (const [k, v] of Object.entries(r)) {
        if (ENTITY_MEMBERS.has(k)) continue;
        if (own && a.names) {
          if (a.names.has(k)) l[k] = v; // what else the source shows is not its to give
          continue;
        }
        if (!(k in l)) {
          l[k] = v;
          continue;
        }
        if (a.mode === "inclusive") {
          const tl = observedAt(l[k]);
          const tr = observedAt(v);
          if (tl !== undefined && tr !== undefined && tr > tl) l[k] = v;
        }
      }
    }
  }
  return [...byId.values()];
}
