import type { Logger } from "../log/logger";
import type { AttributeIndex, AttributeIndexImage } from "../ngsi-ld/query/index/attribute-index";
import type { GeoIndex, GeoIndexImage } from "../ngsi-ld/query/geo";
import type { EntityIndex, EntityIndexImage } from "../store/indexes/entity-index";
import { buildStamp, type IndexImage, writeIndexImage } from "../store/indexes/index-image";

/** The indexes an image holds: the entity, attribute and geo indexes, one frame each in that order. */
export interface ImagedIndexes {
  index: EntityIndex;
  attributes: AttributeIndex;
  geo: GeoIndex;
}

/**
 * Writes the image of the indexes at a clean stop (store/indexes/index-image.ts), `seq` being the last commit
 * they applied. Nothing is written when the service runs without a build stamp or the indexes disagree on
 * the entities they hold; the next start then reads every graph.
 */
export function saveIndexImage(dataDir: string, seq: number, idx: ImagedIndexes, log: Logger): void {
  const build = buildStamp();
  if (build === undefined) return;
  const t0 = Date.now();
  const entities = idx.index.imageParts();
  const numbers = new Map(entities.map((p) => [p.tenant, new Map(p.ids.map((id, i) => [id, i]))]));
  const numberOf = (tenant: string, id: string): number | undefined => numbers.get(tenant)?.get(id);
  const attributes = idx.attributes.imageParts(numberOf);
  const geo = idx.geo.imageParts(numberOf);
  if (!attributes || !geo) {
    log.warn("index image not written: the attribute or geo index holds an entity the entity index has not");
    return;
  }
  const bytes = writeIndexImage(dataDir, { seq, build }, [entities, attributes, geo]);
  log.info("index image written", { seq, bytes, ms: Date.now() - t0 });
}

/**
 * Fills the indexes from `image` if it was written by this build at `lastSeq`, the seq the store holds now;
 * returns whether it did. Any other image is left unused (the caller reads every graph instead).
 */
export function loadIndexImage(
  image: IndexImage | undefined,
  lastSeq: number,
  idx: ImagedIndexes,
  log: Logger,
): boolean {
  if (!image) return false;
  const { seq, build } = image.header;
  const sameBuild = build === buildStamp();
  if (!sameBuild || seq !== lastSeq) {
    log.info("index image not used", { seq, lastSeq, sameBuild });
    return false;
  }
  const t0 = Date.now();
  try {
    const entities = image.frames.next().value as EntityIndexImage[];
    const attributes = image.frames.next().value as [string, AttributeIndexImage][];
    const geo = image.frames.next().value as [string, GeoIndexImage][];
    const ids = new Map(entities.map((p) => [p.tenant, p.ids]));
    const idsOf = (tenant: string): string[] => ids.get(tenant) ?? [];
    idx.index.loadImage(entities);
    idx.attributes.loadImage(attributes, idsOf);
    idx.geo.loadImage(geo, idsOf);
  } catch (e) {
    log.warn("index image unreadable; reading every graph instead", { error: String(e) });
    return false;
  }
  log.info("derived indexes loaded from their image", { seq, ms: Date.now() - t0 });
  return true;
}
