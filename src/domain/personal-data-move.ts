import type { Entity } from "../ngsi-ld/model/entity";
import type { CompiledContext } from "../rdf/contexts/compiled-context";
import { PERSONAL_ATTRIBUTES, type PersonalData } from "./personal-data";

/** What moving personal data out of the shared graph needs of it. */
export interface SharedEntities {
  /** Ids of the default tenant's entities of a type (expanded IRI). */
  idsOfType(typeIri: string): string[];
  /** One entity as the shared graph holds it (without what is kept apart), compacted with the traffic context. */
  read(id: string): Promise<Entity | undefined>;
  /** Removes an attribute (traffic-context term), every instance, from the entity. */
  drop(id: string, name: string): Promise<void>;
  /** True when the entity's temporal history holds instances of the attribute. */
  inHistory(id: string, name: string): boolean;
  /** Removes every instance of the attribute from the entity's temporal history. */
  dropHistory(id: string, name: string): Promise<void>;
}

/**
 * Moves the personal attributes that entities still hold in the shared graph (written before every
 * write path kept them apart: personal-data-guard.ts) to where personal data is kept (personal-data.ts),
 * added to what is kept for the entity already, then removes them from the entity and every instance of
 * them from its temporal history, also where only the history holds them. Runs at start; returns how
 * many entities it changed.
 */
export async function movePersonalDataApart(
  shared: SharedEntities,
  personal: PersonalData,
  ctx: CompiledContext,
): Promise<number> {
  let moved = 0;
  for (const [type, names] of Object.entries(PERSONAL_ATTRIBUTES)) {
    for (const id of shared.idsOfType(ctx.expandTerm(type))) {
      const e = await shared.read(id);
      const present = names.filter((n) => e?.[n] !== undefined);
      const past = names.filter((n) => shared.inHistory(id, n));
      if (!e || present.length + past.length === 0) continue;
      if (present.length) await personal.add(id, Object.fromEntries(present.map((n) => [n, e[n]])));
      for (const n of present) await shared.drop(id, n);
      for (const n of names) if (shared.inHistory(id, n)) await shared.dropHistory(id, n);
      moved++;
    }
  }
  return moved;
}
