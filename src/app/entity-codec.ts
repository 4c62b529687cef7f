import { TRAFFIC_SHORTCUT_ALIASES } from "../domain/vocabulary";
import { entityToTriples, triplesToEntity } from "../ngsi-ld/codec";
import type { EntityCodec } from "../ngsi-ld/entities/entity-codec";
import type { Entity } from "../ngsi-ld/model/entity";

/** The fast JSON-LD codec (src/ngsi-ld/codec) as the repository's entity <-> triples mapping. */
export const fastEntityCodec: EntityCodec = {
  toTriples: (e, ctx) =>
    entityToTriples(e as Parameters<typeof entityToTriples>[0], ctx, {
      shortcutAliases: TRAFFIC_SHORTCUT_ALIASES,
    }),
  fromTriples: (t, id, ctx) => triplesToEntity(t, id, ctx) as Entity,
};
