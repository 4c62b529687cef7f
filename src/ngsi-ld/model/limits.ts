import { badRequest } from "../../errors";

/**
 * Limits of one entity that protect the process (docs/configuration.md "Limits"): each bounds the work and memory one
 * request can cause, and is checked before anything is stored.
 */
export const ENTITY_LIMITS = {
  /** Characters of an entity, subscription or attribute id (a longer one breaks clients' headers). */
  idLength: 2048,
  /** Attributes at the top level of one entity or fragment. */
  attributes: 1000,
  /** Instances of one attribute (one per datasetId). */
  instances: 100,
} as const;

/** 400 unless `id` is at most ENTITY_LIMITS.idLength characters long. */
export function checkIdLength(id: string, what: string): void {
  if (id.length > ENTITY_LIMITS.idLength) {
    throw badRequest(
      `${what} has ${id.length} characters, more than the limit of ${ENTITY_LIMITS.idLength}`,
      {
        limit: ENTITY_LIMITS.idLength,
      },
    );
  }
}
