import { attributeNames } from "../model/entity";
import { matchesFilter } from "../query/query-filter";
import type { CompiledSubscription } from "./compile-subscription";
import type { EntityDiff } from "./entity-diff";
import { subscriptionStatus, type NotificationTrigger } from "./subscription";

/**
 * Whether a change to an entity is to be notified to a subscription, and for which trigger (ETSI GS CIM
 * 009 v1.8 §5.8.6 notification behaviour, §5.2.12): the subscription is active and not periodic; the
 * entity (its new state, or its last state when deleted) matches `entities`, `q`, `geoQ` and `scopeQ`
 * with the query engine's own evaluator; and one of the subscription's triggers fired, counting only
 * `watchedAttributes` for the attribute triggers and entityUpdated. Undefined when nothing is to be sent.
 */
export function matchChange(
  cs: CompiledSubscription,
  change: EntityDiff,
  now = Date.now(),
): NotificationTrigger | undefined {
  const sub = cs.record.sub;
  if (sub.timeInterval !== undefined || subscriptionStatus(sub, now) !== "active") return undefined;
  const entity = change.after ?? change.before;
  if (!entity || !matchesFilter(cs.filter, entity, cs.ctx)) return undefined;
  const t = cs.triggers;
  const watched = (names: string[]) =>
    cs.watched ? names.some((n) => cs.watched?.has(n)) : names.length > 0;
  if (!change.after) {
    if (t.has("entityDeleted")) return "entityDeleted";
    // deleting an entity deletes its attributes (ETSI suite 046_22_12)
    const names = change.before ? attributeNames(change.before) : [];
    return t.has("attributeDeleted") && watched(names) ? "attributeDeleted" : undefined;
  }
  if (!change.before) {
    if (t.has("entityCreated")) return "entityCreated";
    return t.has("attributeCreated") && watched(change.created) ? "attributeCreated" : undefined;
  }
  if (t.has("entityUpdated") && watched([...change.created, ...change.updated, ...change.deleted])) {
    return "entityUpdated";
  }
  if (t.has("attributeCreated") && watched(change.created)) return "attributeCreated";
  if (t.has("attributeUpdated") && watched(change.updated)) return "attributeUpdated";
  if (t.has("attributeDeleted") && watched(change.deleted)) return "attributeDeleted";
  return undefined;
}
