import { readFileSync } from "node:fs";
import path from "node:path";
import jsonld from "jsonld";
import type { RemoteDocument } from "jsonld/jsonld-spec";
import { CORE_CONTEXT_URL, type EntityJson } from "./entities";

/**
 * Entity -> N-Quads with jsonld.js (JSON-LD 1.1 API §8.4 Deserialize JSON-LD to RDF), the reference
 * path. The core context is read from `contexts/` and served by a local document loader: the
 * network is never used; any other URL is an error.
 */

const CONTEXTS_DIR = path.resolve(__dirname, "..", "..", "..", "contexts");
let coreDocument: unknown;

/** Document loader serving the core context v1.8 from disk. */
export async function localLoader(url: string): Promise<RemoteDocument> {
  if (url !== CORE_CONTEXT_URL) throw new Error(`bench: no local copy of context ${url}`);
  coreDocument ??= JSON.parse(
    readFileSync(path.join(CONTEXTS_DIR, "ngsi-ld-core-context-v1.8.jsonld"), "utf8"),
  );
  return { contextUrl: undefined, documentUrl: url, document: coreDocument as RemoteDocument["document"] };
}

/** A blank-node label prefix unique to the entity (labels are document-scoped in one load). */
function blankPrefix(id: string): string {
  return `e${id.replace(/[^A-Za-z0-9]/g, "")}b`;
}

/**
 * The N-Quads of one entity (its `@context` is used as is; one is added if missing), with every
 * quad put in the named graph of the entity id, as the store holds entities, and blank nodes
 * relabelled per entity so that many entities can be loaded as one document.
 */
export async function entityToNQuads(entity: EntityJson): Promise<string> {
  const doc = { "@context": CORE_CONTEXT_URL, ...entity };
  const nq = (await jsonld.toRDF(doc as jsonld.JsonLdDocument, {
    format: "application/n-quads",
    documentLoader: localLoader,
  })) as unknown as string;
  const graph = ` <${String(entity.id)}> .\n`;
  const prefix = `_:${blankPrefix(String(entity.id))}`;
  return nq.replace(/_:b(\d+)/g, `${prefix}$1`).replace(/ \.\n/g, graph);
}
