import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { NGSI_LD } from "../../rdf/vocab";
import type { Entity } from "../model/entity";
import type { AttributeInstance } from "../model/normalize-attribute";
import type { RowTuple } from "./history-record";
import { instanceToTuple } from "./instance-codec";

/** The IRI the history files an entity's `scope` under, as if it were an attribute (§4.18). */
export const SCOPE_IRI = `${NGSI_LD}scope`;

/** True if a write took away the scope `before` had (the entity stays or goes). */
export function scopeRemoved(before: Entity, after: Entity | null | undefined): boolean {
  return before.scope !== undefined && after?.scope === undefined;
}

/**
 * The deletion instance of an entity's scope (ETSI GS CIM 009 v1.8 §4.18, §4.5.0 `deletedAt`): a Property
 * whose value is the empty list of scopes, so `timeproperty=deletedAt` shows when the scope went
 * (ETSI suite 020_19, 020_20).
 */
export function scopeDeletionRow(ctx: CompiledContext, iid: number, now: number): RowTuple {
  const gone: AttributeInstance = {
    type: "Property",
    value: [],
    deletedAt: true,
    modifiedAt: new Date(now).toISOString(),
  };
  return instanceToTuple(SCOPE_IRI, gone, ctx, iid, now);
}
