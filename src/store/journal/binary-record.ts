import type { GraphWrite } from "../graph-store";

/** One committed change as kept in the journal (docs/design.md "Durability is ours to build"). */
export interface JournalRecord {
  seq: number;
  tenant: string;
  writes: GraphWrite[];
}

/**
 * First byte of a binary journal payload. A JSON payload (older journals, the history log) starts with
 * `{` (0x7B), so the decoder tells the two apart by this byte.
 */
export const BINARY_TAG = 0x01;

/** Length written for a dropped graph (`triples: null`). */
const NULL_LEN = 0xffffffff;

/**
 * The payload of a journal record in binary form: tag, seq (float64 LE), tenant, then per write the
 * graph IRI and the N-Triples text, each as u32 LE byte length + UTF-8 (length 0xFFFFFFFF: dropped).
 * Several times cheaper than `JSON.stringify` of the same record, whose N-Triples quotes JSON escapes, on
 * the store worker's ack path (docs/decisions/0001-write-path.md).
 * `alloc` gives the buffer (e.g. `Buffer.allocUnsafeSlow` for one that owns its ArrayBuffer, to transfer).
 */
export function encodeBinaryPayload(
  r: JournalRecord,
  headerBytes: number,
  alloc: (size: number) => Buffer = Buffer.allocUnsafe,
): Buffer {
  let size = headerBytes + 1 + 8 + 4 + Buffer.byteLength(r.tenant, "utf8") + 4;
  for (const w of r.writes) {
    size += 8 + Buffer.byteLength(w.graph, "utf8");
    if (w.triples !== null) size += Buffer.byteLength(w.triples, "utf8");
  }
  const out = alloc(size);
  let at = headerBytes;
  out[at++] = BINARY_TAG;
  at = out.writeDoubleLE(r.seq, at);
  const text = (s: string): void => {
    const n = out.write(s, at + 4, "utf8");
    out.writeUInt32LE(n, at);
    at += 4 + n;
  };
  text(r.tenant);
  at = out.writeUInt32LE(r.writes.length, at);
  for (const w of r.writes) {
    text(w.graph);
    if (w.triples === null) at = out.writeUInt32LE(NULL_LEN, at);
    else text(w.triples);
  }
  return out;
}

/** One write of a binary payload with its text left as bytes: a view into the payload, not a copy. */
export interface GraphWriteBytes {
  graph: string;
  /** The UTF-8 N-Triples of the graph (a view into the record), or null to drop it. */
  triples: Uint8Array | null;
}

/**
 * Reads a payload written by {@link encodeBinaryPayload}, turning each write's text into a `T` with
 * `text(at, n)` (bytes [at, at + n) of `p`); throws on a short or inconsistent payload.
 */
function readBinaryPayload<T>(
  p: Buffer,
  text: (at: number, n: number) => T,
): { seq: number; tenant: string; writes: { graph: string; triples: T | null }[] } {
  let at = 1;
  const need = (n: number): void => {
    if (at + n > p.length) throw new RangeError("binary journal record cut short");
  };
  const u32 = (): number => {
    need(4);
    const v = p.readUInt32LE(at);
    at += 4;
    return v;
  };
  const take = <U>(n: number, as: (at: number, n: number) => U): U => {
    need(n);
    const v = as(at, n);
    at += n;
    return v;
  };
  const str = (a: number, n: number): string => p.toString("utf8", a, a + n);
  need(8);
  const seq = p.readDoubleLE(at);
  at += 8;
  const tenant = take(u32(), str);
  const count = u32();
  const writes: { graph: string; triples: T | null }[] = [];
  for (let i = 0; i < count; i++) {
    const graph = take(u32(), str);
    const n = u32();
    writes.push({ graph, triples: n === NULL_LEN ? null : take(n, text) });
  }
  if (at !== p.length) throw new RangeError("binary journal record has trailing bytes");
  return { seq, tenant, writes };
}

/** Reads a payload written by {@link encodeBinaryPayload}; throws on a short or inconsistent one. */
export function decodeBinaryPayload(p: Buffer): JournalRecord {
  return readBinaryPayload(p, (at, n) => p.toString("utf8", at, at + n));
}

/**
 * Reads a payload as {@link decodeBinaryPayload} does, but leaves each write's N-Triples as a view into
 * `p` (the store worker loads those bytes into Oxigraph as they are, docs/decisions/0001-write-path.md). The views live as long as `p` is not changed.
 */
export function binaryPayloadViews(p: Buffer): { seq: number; tenant: string; writes: GraphWriteBytes[] } {
  return readBinaryPayload(p, (at, n) => p.subarray(at, at + n));
}
