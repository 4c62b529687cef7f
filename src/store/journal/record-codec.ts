import { crc32 } from "node:zlib";
import type { GraphWrite } from "../graph-store";
import {
  BINARY_TAG,
  binaryPayloadViews,
  decodeBinaryPayload,
  encodeBinaryPayload,
  type GraphWriteBytes,
  type JournalRecord,
} from "./binary-record";

export type { GraphWriteBytes, JournalRecord };

/** Bytes of the record header: payload length (u32 LE) then CRC-32 of the payload (u32 LE). */
export const HEADER_BYTES = 8;

/**
 * Encodes a record as header + UTF-8 JSON payload. Generic so that other append-only logs with the same
 * framing (the temporal history log, src/store/history) share it; the default is a journal record.
 */
export function encodeRecord<T = JournalRecord>(r: T): Buffer {
  const json = JSON.stringify(r);
  const out = Buffer.allocUnsafe(HEADER_BYTES + Buffer.byteLength(json, "utf8"));
  const len = out.write(json, HEADER_BYTES, "utf8");
  out.writeUInt32LE(len, 0);
  out.writeUInt32LE(crc32(out.subarray(HEADER_BYTES)), 4);
  return out;
}

/** Encodes a journal record as header + binary payload (binary-record.ts); what the store worker appends. */
export function encodeJournalRecord(r: JournalRecord): Buffer {
  return sealJournalRecord(encodeBinaryPayload(r, HEADER_BYTES), r.seq);
}

/**
 * A commit as the main thread sends it to the store worker (docs/decisions/0001-write-path.md): the journal record of `writes` without its seq and header, in a buffer that
 * owns its ArrayBuffer, so that `postMessage` can transfer it instead of copying. The worker loads the
 * N-Triples from it ({@link commitRecordWrites}) and appends the very same bytes once sealed
 * ({@link sealJournalRecord}): no string crosses the thread boundary and nothing is encoded twice.
 */
export function encodeCommitRecord(tenant: string, writes: GraphWrite[]): Buffer {
  return encodeBinaryPayload({ seq: 0, tenant, writes }, HEADER_BYTES, Buffer.allocUnsafeSlow);
}

/** Tenant and writes of a record made by {@link encodeCommitRecord}, the N-Triples as views into it. */
export function commitRecordWrites(record: Buffer): { tenant: string; writes: GraphWriteBytes[] } {
  if (record.length <= HEADER_BYTES || record[HEADER_BYTES] !== BINARY_TAG)
    throw new RangeError("not a binary commit record");
  return binaryPayloadViews(record.subarray(HEADER_BYTES));
}

/**
 * Completes a record made by {@link encodeCommitRecord} (or {@link encodeBinaryPayload} after
 * HEADER_BYTES) in place: its seq, then the header (payload length and CRC-32). Returns `record`.
 */
export function sealJournalRecord(record: Buffer, seq: number): Buffer {
  record.writeDoubleLE(seq, HEADER_BYTES + 1);
  record.writeUInt32LE(record.length - HEADER_BYTES, 0);
  record.writeUInt32LE(crc32(record.subarray(HEADER_BYTES)), 4);
  return record;
}

/** Where and why decoding of a segment stopped early. */
export interface SegmentDamage {
  /** Offset of the first byte that is not part of a whole, valid record. */
  offset: number;
  reason: string;
  /**
   * True when the damage can only be a write cut short by a crash: the record runs past the end of the
   * file, or it is the very last thing in the file (zero bytes after the end its header gives aside: a
   * crash in a preallocated segment leaves a prefix of the record, then the zeros written ahead).
   * False means valid-looking bytes follow the bad record: corruption in the middle.
   */
  torn: boolean;
}

/** How decoding a segment ended: where its valid records end, and the damage that stopped it, if any. */
export interface SegmentEnd {
  /** Offset just after the last whole, valid record. */
  validBytes: number;
  /**
   * Zero bytes after the last record, not damage: the unused part of a preallocated segment
   * (journal-writer.ts writes zeros ahead of its records and overwrites them in place).
   */
  zeroBytes?: number;
  damage?: SegmentDamage;
}

/**
 * Bytes of a segment, by offset: the segment in memory, or a window on its file (segment-file.ts), so a
 * segment can be decoded without holding all of it.
 */
export interface SegmentBytes {
  /** Length of the segment in bytes. */
  readonly length: number;
  /** Bytes [offset, offset + n), all within the segment. Valid until the next call. */
  bytes(offset: number, n: number): Buffer;
}

/** True when every byte of `src` from `from` on is zero (the unused tail of a preallocated segment). */
function allZero(src: SegmentBytes, from: number): boolean {
  for (let at = from; at < src.length;) {
    const n = Math.min(1 << 20, src.length - at);
    const b = src.bytes(at, n);
    for (let i = 0; i < n; i++) if (b[i] !== 0) return false;
    at += n;
  }
  return true;
}

/**
 * Decodes a segment record by record, handing each to `each` as soon as it is decoded; stops at the
 * first incomplete or corrupt record and classifies the damage; zero bytes from a record boundary to the
 * end are the unused part of a preallocated segment (`zeroBytes`), not damage. A payload is JSON
 * ({@link encodeRecord}) or a binary journal record ({@link encodeJournalRecord}). No list of records is built: a record's
 * strings can be collected once `each` returns, which keeps a replay's heap small
 * (docs/decisions/0002-memory-at-scale.md). Records before the damage have been handed over when
 * it is found; callers that refuse the damage throw, which stops start-up anyway.
 */
export function forEachRecord<T = JournalRecord>(
  src: Buffer | SegmentBytes,
  each: (r: T) => void,
): SegmentEnd {
  const seg: SegmentBytes = Buffer.isBuffer(src) ? bufferBytes(src) : src;
  let at = 0;
  // torn: the record runs past the end, or nothing but zeros follows it (a preallocated segment, whose
  // record was cut by a crash: only a prefix of it reached the file, the rest are the zeros written ahead)
  const stop = (reason: string, recordEnd: number): SegmentEnd => ({
    validBytes: at,
    damage: { offset: at, reason, torn: recordEnd >= seg.length || allZero(seg, recordEnd) },
  });
  while (at < seg.length) {
    // nothing but zeros from a record boundary on: the unused tail of a preallocated segment, not damage
    if (seg.bytes(at, 1)[0] === 0 && allZero(seg, at)) return { validBytes: at, zeroBytes: seg.length - at };
    if (seg.length - at < HEADER_BYTES) return stop("truncated header", seg.length);
    const header = seg.bytes(at, HEADER_BYTES);
    const len = header.readUInt32LE(0);
    const crc = header.readUInt32LE(4);
    const end = at + HEADER_BYTES + len;
    if (len === 0) return stop("empty record", end);
    if (end > seg.length) return stop("truncated record", end);
    const payload = seg.bytes(at + HEADER_BYTES, len);
    if (crc32(payload) !== crc) return stop("checksum mismatch", end);
    let rec: T;
    try {
      rec =
        payload[0] === BINARY_TAG
          ? (decodeBinaryPayload(payload) as T)
          : (JSON.parse(payload.toString("utf8")) as T);
    } catch {
      return stop("unreadable payload", end);
    }
    at = end;
    each(rec);
  }
  return { validBytes: at };
}

function bufferBytes(buf: Buffer): SegmentBytes {
  return { length: buf.length, bytes: (offset, n) => buf.subarray(offset, offset + n) };
}
