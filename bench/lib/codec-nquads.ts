import { readFileSync } from "node:fs";
import path from "node:path";
import { entityToTriples, type NgsiEntity } from "../../src/ngsi-ld/codec";
import { stampNewEntity } from "../../src/ngsi-ld/entities/timestamps";
import type { Entity } from "../../src/ngsi-ld/model/entity";
import { compileContext } from "../../src/rdf/contexts/compile-context";
import type { CompiledJsonLdContext } from "../../src/rdf/contexts/compile-context";
import type { EntityJson } from "./entities";

/**
 * Entity -> N-Quads with the service's own codec (src/ngsi-ld/codec `entityToTriples`, normative
 * NGSI-LD RDF plus shortcut triples), i.e. what the store really holds for an entity, with the
 * system timestamps the service adds on create (`stampNewEntity`: createdAt/modifiedAt on the entity
 * and on every attribute instance).
 */

let core: CompiledJsonLdContext | undefined;

function coreContext(): CompiledJsonLdContext {
  const file = path.resolve(__dirname, "..", "..", "..", "contexts", "ngsi-ld-core-context-v1.8.jsonld");
  core ??= compileContext([JSON.parse(readFileSync(file, "utf8")) as object]);
  return core;
}

/**
 * The N-Quads of one entity in its named graph (the entity id), blank nodes relabelled per entity
 * so that many entities can be loaded as one document. `@context` is ignored (the core context is
 * used, which is what the bodies carry).
 */
export function entityToNQuadsFast(entity: EntityJson, now: string): string {
  const { "@context": _ignored, ...rest } = entity;
  const e = structuredClone(rest) as unknown as Entity;
  stampNewEntity(e, now);
  const nt = entityToTriples(e as NgsiEntity, coreContext());
  const prefix = `_:e${e.id.replace(/[^A-Za-z0-9]/g, "")}b`;
  return nt.replace(/_:b(\d+)/g, `${prefix}$1`).replace(/ \.\n/g, ` <${e.id}> .\n`);
}
