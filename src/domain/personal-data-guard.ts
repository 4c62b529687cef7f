import type { Entity } from "../ngsi-ld/model/entity";
import type { WriteGuard } from "../ngsi-ld/model/write-guard";
import type { CompiledContext } from "../rdf/contexts/compiled-context";
import { DEFAULT_TENANT } from "../store/graph-store";
import { PERSONAL_ATTRIBUTES, type PersonalData } from "./personal-data";

/**
 * Keeps personal data apart on every write path (docs/decisions/0014-personal-data-apart.md): an entity
 * of a type that holds personal data (a `CitizenReport`'s `reporter`, an `AlertSubscription`'s
 * `channelTargets`), written by any client through NGSI-LD (create, update, patch, merge, replace, batch)
 * or its temporal API, loses those attributes before it is stored; they are added to the entity's
 * personal record instead. Other tenants and other types pass untouched at the cost of a map lookup.
 */
export function personalDataGuard(personal: PersonalData, traffic: CompiledContext): WriteGuard {
  // expanded type -> expanded attribute -> the attribute's traffic-context term
  const byType = new Map<string, Map<string, string>>();
  for (const [type, names] of Object.entries(PERSONAL_ATTRIBUTES))
    byType.set(traffic.expandTerm(type), new Map(names.map((n) => [traffic.expandTerm(n), n])));
  return {
    async apart(tenant, e, types, ctx): Promise<Entity> {
      if (tenant !== DEFAULT_TENANT) return e;
      const personalOf = types.map((t) => byType.get(t)).find((m) => m !== undefined);
      if (!personalOf) return e;
      const found: Record<string, unknown> = {};
      let rest: Entity | undefined;
      for (const [k, v] of Object.entries(e)) {
        const term = personalOf.get(ctx.expandTerm(k));
        if (term === undefined || v === undefined) continue;
        found[term] = v;
        rest ??= { ...e };
        delete rest[k];
      }
      if (!rest) return e;
      await personal.add(e.id, found);
      return rest;
    },
  };
}
