import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { AppError } from "../../errors";
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

/** The gzip form of `b` (kept in `b`, so a cached page is compressed once). */
export function gzipOf(b: LdesBody): Buffer {
  return (b.gzip ??= gzipSync(b.body, { level: 6 }));
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
 * expanded form. The ETag is a hash of the bytes, so equal bodies have equal tags across restarts.
 */
export function renderLdes(triples: string, f: ResultFormat): LdesBody {
  const body = Buffer.from(f.kind === "jsonld" ? JSON.stringify(ntriplesToJsonLd(triples)) : triples);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  return { body, mediaType: f.mediaType, etag };
}
