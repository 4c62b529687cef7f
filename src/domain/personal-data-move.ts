import type { Entity } from "../ngsi-ld/model/entity";
import type { CompiledContext } from "../rdf/contexts/compiled-context";
import { PERSONAL_ATTRIBUTES, type PersonalData } from "./personal-data";

/** What moving personal data out of the shared graph needs of it. */
export interface SharedEntities {
  /** Ids of the default tenant's entities of a type (expanded IRI). */
  idsOfType(typeIri: string): string[];
  /** One entity as the shared graph holds it, compacted with the traffic context. */
  read(id: string): Promise<Entity | undefined>;
  /** Removes an attribute (traffic-context term), every instance, from the entity and its temporal history. */
  drop(id: string, name: string): Promise<void>;
}

/**
 * Moves the personal attributes that entities still hold in the shared graph (written by a version that
 * kept them there) to where personal data is kept (personal-data.ts), then removes them from the entity
 * and its history. Runs at start; returns how many entities it changed.
 */
export async function movePersonalDataApart(
  shared: SharedEntities,
  personal: PersonalData,
  ctx: CompiledContext,
): Promise<number> {
  let moved = 0;
  for (const [type, names] of Object.entries(PERSONAL_ATTRIBUTES)) {
    for (const id of shared.idsOfType(ctx.expandTerm(type))) {
      if (personal.has(id)) continue;
      const e = await shared.read(id);
      const present = names.filter((n) => e?.[n] !== undefined);
      if (!e || present.length === 0) continue;
      await personal.keep(id, Object.fromEntries(present.map((n) => [n, e[n]])));
      for (const n of present) await shared.drop(id, n);
      moved++;
    }
  }
  return moved;
}
