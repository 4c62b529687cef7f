import { crc32 } from "node:zlib";
import { BINARY_TAG, decodeBinaryPayload, encodeBinaryPayload, type JournalRecord } from "./binary-record";

export type { JournalRecord };

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
  const out = encodeBinaryPayload(r, HEADER_BYTES);
  out.writeUInt32LE(out.length - HEADER_BYTES, 0);
  out.writeUInt32LE(crc32(out.subarray(HEADER_BYTES)), 4);
  return out;
}

/** Where and why decoding of a segment stopped early. */
export interface SegmentDamage {
  /** Offset of the first byte that is not part of a whole, valid record. */
  offset: number;
  reason: string;
  /**
   * True when the damage can only be a write cut short by a crash: the record runs past the end of the
   * file, or it is the very last thing in the file, or everything from `offset` on is zero bytes.
   * False means valid-looking bytes follow the bad record: corruption in the middle.
   */
  torn: boolean;
}

/** Result of decoding the records of one journal segment. */
export interface DecodedSegment<T = JournalRecord> {
  records: T[];
  /** Offset just after the last whole, valid record. */
  validBytes: number;
  damage?: SegmentDamage;
}

function allZero(buf: Buffer, from: number): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

/**
 * Decodes a segment; stops at the first incomplete or corrupt record and classifies the damage. A
 * payload is JSON ({@link encodeRecord}) or a binary journal record ({@link encodeJournalRecord}).
 */
export function decodeSegment<T = JournalRecord>(buf: Buffer): DecodedSegment<T> {
  const records: T[] = [];
  let at = 0;
  const stop = (reason: string, recordEnd: number): DecodedSegment<T> => ({
    records,
    validBytes: at,
    damage: { offset: at, reason, torn: recordEnd >= buf.length || allZero(buf, at) },
  });
  while (at < buf.length) {
    if (buf.length - at < HEADER_BYTES) return stop("truncated header", buf.length);
    const len = buf.readUInt32LE(at);
    const end = at + HEADER_BYTES + len;
    if (len === 0) return stop("empty record", end);
    if (end > buf.length) return stop("truncated record", end);
    const payload = buf.subarray(at + HEADER_BYTES, end);
    if (crc32(payload) !== buf.readUInt32LE(at + 4)) return stop("checksum mismatch", end);
    let rec: T;
    try {
      rec =
        payload[0] === BINARY_TAG
          ? (decodeBinaryPayload(payload) as T)
          : (JSON.parse(payload.toString("utf8")) as T);
    } catch {
      return stop("unreadable payload", end);
    }
    records.push(rec);
    at = end;
  }
  return { records, validBytes: at };
}
