import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { AppError } from "../../errors";
import { yieldToLoop } from "../../ngsi-ld/ldes/yield-to-loop";
import { ntriplesToJsonLd } from "../../rdf/ntriples/to-jsonld";
import { GRAPH_FORMATS, negotiateAmong, type ResultFormat } from "../../rdf/sparql-results";

/**
 * The formats of the LDES documents: those of SPARQL's graph answers, and N-Quads (the same N-Triples
 * text, all in the default graph), which LDES clients built on rdf-dereference ask for first.
 */
const LDES_FORMATS: readonly ResultFormat[] = [
  ...GRAPH_FORMATS,
  { mediaType: "application/n-quads", kind: "ntriples", accepts: ["application/n-quads"] },
];

/** A rendered LDES document: its bytes (sent as they are, also from the cache), media type and strong ETag. */
export interface LdesBody {
  body: Buffer;
  mediaType: string;
  etag: string;
  /** The gzip-encoded bytes, made on the first request that accepts them. */
  gzip?: Buffer;
}

const gzipAsync = promisify(gzip);

/** The gzip form of `b`, made in libuv's thread pool and kept in `b` (a cached page is compressed once). */
export async function gzipOf(b: LdesBody): Promise<Buffer> {
  return (b.gzip ??= await gzipAsync(b.body, { level: 6 }));
}

/** The RDF format the `Accept` header asks for (Turtle by default); 406 when none is offered. */
export function ldesFormat(accept: string): ResultFormat {
  const f = negotiateAmong(LDES_FORMATS, accept);
  if (f) return f;
  throw new AppError(
    "NotAcceptable",
    `No acceptable format; offered: ${LDES_FORMATS.map((g) => g.mediaType).join(", ")}`,
  );
}

/**
 * N-Triples in format `f`: Turtle and N-Quads are the same text (N-Triples is a subset of both), JSON-LD the
 * expanded form. `pieces` share no subject, so each is converted on its own turn of the event loop and the
 * node lists joined. The ETag is a hash of the bytes, so equal bodies have equal tags across restarts.
 */
export async function renderLdes(pieces: readonly string[], f: ResultFormat): Promise<LdesBody> {
  let text: string;
  if (f.kind !== "jsonld") text = pieces.join("");
  else {
    const parts: string[] = [];
    for (const p of pieces) {
      const nodes = JSON.stringify(ntriplesToJsonLd(p));
      if (nodes !== "[]") parts.push(nodes.slice(1, -1));
      await yieldToLoop();
    }
    text = `[${parts.join(",")}]`;
  }
  const body = Buffer.from(text);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  return { body, mediaType: f.mediaType, etag };
}

/** The bytes a rendered document holds in memory, its gzip form included. */
export const bytesOf = (b: LdesBody): number => b.body.length + (b.gzip?.length ?? 0);
