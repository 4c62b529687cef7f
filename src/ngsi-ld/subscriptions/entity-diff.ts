import { deletedValueOf, valueMemberOf } from "../model/attribute-kinds";
import { attributeNames, datasetIdOf, type Entity, instancesOf, setInstances } from "../model/entity";
import type { AttributeInstance } from "../model/normalize-attribute";

/** The NGSI-LD null (ETSI GS CIM 009 v1.8 §4.5.0): the value of a deleted attribute in a notification. */
export const NGSI_LD_NULL = "urn:ngsi-ld:null";

/** What one commit did to one entity, with both states compacted by the same @context. */
export interface EntityDiff {
  id: string;
  /** The entity before the write; undefined if it did not exist. */
  before?: Entity;
  /** The entity after the write; undefined if it was deleted. */
  after?: Entity;
  /**
   * Attribute names created, updated (any instance written, even with the same value), deleted (the
   * attribute, or one of its instances: a datasetId deleted, §4.5.5).
   */
  created: string[];
  updated: string[];
  deleted: string[];
  /** When the write happened (the entity's modifiedAt, or now for a deletion). */
  at: string;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Compares two states of an entity attribute by attribute (§5.2.12 notificationTrigger semantics): an
 * attribute is updated when any instance changed, `modifiedAt` included, so that writing the same value
 * again still counts as an update, as the triggers of §5.8.6 expect.
 */
export function diffEntity(
  id: string,
  before: Entity | undefined,
  after: Entity | undefined,
  at: string,
): EntityDiff {
  const change: EntityDiff = { id, before, after, created: [], updated: [], deleted: [], at };
  const b = before ?? ({} as Entity);
  const a = after ?? ({} as Entity);
  for (const n of attributeNames(a)) {
    if (b[n] === undefined) {
      change.created.push(n);
      continue;
    }
    const now = new Map(instancesOf(a, n).map((i) => [datasetIdOf(i), i]));
    const was = new Map(instancesOf(b, n).map((i) => [datasetIdOf(i), i]));
    if ([...was.keys()].some((d) => !now.has(d))) change.deleted.push(n);
    if ([...now].some(([d, i]) => !was.has(d) || !same(i, was.get(d)))) change.updated.push(n);
  }
  if (after) for (const n of attributeNames(b)) if (a[n] === undefined) change.deleted.push(n);
  return change;
}

const PREVIOUS: Record<string, string> = {
  value: "previousValue",
  object: "previousObject",
  languageMap: "previousLanguageMap",
  vocab: "previousVocab",
  json: "previousJson",
  valueList: "previousValueList",
  objectList: "previousObjectList",
};

function valueMember(i: AttributeInstance): string {
  return valueMemberOf(i.type);
}

/** What a notification shows beside the values (§5.2.14 showChanges, sysAttrs). */
export interface ShowOptions {
  showChanges: boolean;
  sysAttrs: boolean;
}

/** An instance shown as deleted: its value member is the NGSI-LD null, with `deletedAt` (§4.5.0). */
function deletedInstance(i: AttributeInstance, at: string, o: ShowOptions): AttributeInstance {
  const member = valueMember(i);
  const out: AttributeInstance = { type: i.type };
  if (o.showChanges) out[PREVIOUS[member]] = i[member];
  out[member] = deletedValueOf(member);
  if (i.datasetId !== undefined) out.datasetId = i.datasetId;
  if (i.createdAt !== undefined) out.createdAt = i.createdAt;
  if (i.modifiedAt !== undefined) out.modifiedAt = i.modifiedAt;
  if (o.sysAttrs) out.deletedAt = at;
  return out;
}

/**
 * A deleted attribute, all its instances gone, shown as one instance with the NGSI-LD null (§4.5.0; ETSI
 * suite 046_22_08 reads `name.value`): the default instance's metadata, else the first one's, no datasetId.
 */
function wholeAttributeDeleted(gone: AttributeInstance[], at: string, o: ShowOptions): AttributeInstance {
  const shown = deletedInstance(gone.find((i) => datasetIdOf(i) === undefined) ?? gone[0], at, o);
  delete shown.datasetId;
  return shown;
}

/**
 * A deleted entity notified for `attributeDeleted` (§5.2.12: deleting the entity deletes its attributes):
 * id, type, deletedAt and each deleted attribute of `names` (all when undefined) with the NGSI-LD null.
 */
export function entityDeletedAsAttributes(
  change: EntityDiff,
  names: Set<string> | undefined,
  o: ShowOptions,
): Entity {
  const gone = change.before ?? ({ id: change.id, type: [] } as Entity);
  const out: Entity = {
    id: gone.id,
    type: gone.type,
    createdAt: gone.createdAt,
    modifiedAt: gone.modifiedAt,
    deletedAt: change.at,
  };
  for (const n of attributeNames(gone)) {
    if (n === "deletedAt" || (names && !names.has(n))) continue;
    setInstances(out, n, [wholeAttributeDeleted(instancesOf(gone, n), change.at, o)]);
  }
  return out;
}

/**
 * The entity a notification shows for a change (ETSI GS CIM 009 v1.8 §5.2.14 `showChanges`, §4.5.0):
 * a deleted entity as its last state with every attribute set to the NGSI-LD null and `deletedAt`; a
 * deleted attribute likewise; with `showChanges`, each changed attribute carries its previous value
 * (`previousValue`, `previousObject`, `previousLanguageMap`, ...).
 */
export function notifiedEntity(change: EntityDiff, o: ShowOptions): Entity {
  const { after, before } = change;
  if (!after) {
    const gone = before ?? ({ id: change.id, type: [] } as Entity);
    // without showChanges a deleted entity is shown as id, type and deletedAt (ETSI suite 046_21)
    if (!o.showChanges)
      return { id: gone.id, type: gone.type, createdAt: gone.createdAt, modifiedAt: gone.modifiedAt };
    const out: Entity = { ...gone, deletedAt: change.at };
    for (const n of attributeNames(gone)) {
      if (n === "deletedAt") continue;
      setInstances(
        out,
        n,
        instancesOf(gone, n).map((i) => deletedInstance(i, change.at, o)),
      );
    }
    return out;
  }
  const out: Entity = { ...after };
  for (const n of change.deleted) {
    const left = instancesOf(after, n);
    const kept = new Set(left.map(datasetIdOf));
    const gone = instancesOf(before as Entity, n).filter((i) => !kept.has(datasetIdOf(i)));
    setInstances(
      out,
      n,
      left.length === 0
        ? [wholeAttributeDeleted(gone, change.at, o)]
        : [...left, ...gone.map((i) => deletedInstance(i, change.at, o))],
    );
  }
  if (o.showChanges && before) {
    for (const n of change.updated) {
      const old = instancesOf(before, n);
      setInstances(
        out,
        n,
        instancesOf(after, n).map((i) => {
          const prev = old.find((o) => o.datasetId === i.datasetId);
          const member = valueMember(i);
          return prev && prev[valueMember(prev)] !== undefined
            ? { ...i, [PREVIOUS[member]]: prev[valueMember(prev)] }
            : i;
        }),
      );
    }
  }
  return out;
}
