import { BINARY_TAG } from "./binary-record";
import { forEachRecord, HEADER_BYTES, type JournalRecord, type SegmentBytes } from "./record-codec";
import { withFileBytes } from "./segment-file";

/** Bytes of a file that hold no readable record. */
export interface UnreadableSpan {
  offset: number;
  bytes: number;
  reason: string;
}

/** What a file holds past its damage: each readable record, and the spans between them that are not. */
export interface Salvage {
  fileBytes: number;
  /** Readable records, wherever they are in the file. */
  records: number;
  /** Sequence numbers of the first and last readable journal records, if any carries one. */
  firstSeq?: number;
  lastSeq?: number;
  unreadable: UnreadableSpan[];
}

/** First byte of a JSON payload (encodeRecord): `{"`. */
const JSON_OPEN = [0x7b, 0x22];

/**
 * Reads every record of `file` that its checksum still vouches for, damage or not (`citygraph repair` on
 * the `.damaged-*` files a recovery set aside): each record carries its own length and CRC-32, so past a
 * damaged one the next whole record is found by trying each later offset. A candidate must look like a
 * record before its checksum is computed (payload tag, an integral seq for a binary record), so that
 * garbage costs a few byte reads per offset. Zeros to the end are the unused part of a segment.
 */
export function salvageRecords<T = JournalRecord>(file: string, each: (r: T) => void = () => {}): Salvage {
  return withFileBytes(file, (src) => salvageBytes(src, each));
}

function salvageBytes<T>(src: SegmentBytes, each: (r: T) => void): Salvage {
  const out: Salvage = { fileBytes: src.length, records: 0, unreadable: [] };
  const take = (r: T): void => {
    out.records++;
    const seq = (r as { seq?: unknown }).seq;
    if (typeof seq === "number") {
      out.firstSeq ??= seq;
      out.lastSeq = seq;
    }
    each(r);
  };
  let at = 0;
  let gap: UnreadableSpan | undefined;
  while (at < src.length) {
    const end = forEachRecord<T>(from(src, at), take);
    if (end.validBytes > 0) gap = undefined; // records were read: the next damage starts a new span
    if (!end.damage) break;
    const damagedAt = at + end.validBytes;
    at = damagedAt + 1;
    while (at < src.length && !looksLikeRecord(src, at)) at++;
    // a candidate that was not a record after all extends the span it is in
    if (gap) gap.bytes = at - gap.offset;
    else out.unreadable.push((gap = { offset: damagedAt, bytes: at - damagedAt, reason: end.damage.reason }));
  }
  return out;
}

/** The bytes of `src` from `offset` on. */
function from(src: SegmentBytes, offset: number): SegmentBytes {
  return { length: src.length - offset, bytes: (o, n) => src.bytes(offset + o, n) };
}

/** True if a record may start at `at`: a length that fits and the first bytes of a payload. */
function looksLikeRecord(src: SegmentBytes, at: number): boolean {
  if (src.length - at < HEADER_BYTES + 9) return false;
  const h = src.bytes(at, HEADER_BYTES + 9);
  const len = h.readUInt32LE(0);
  if (len < 9 || at + HEADER_BYTES + len > src.length) return false;
  if (h[HEADER_BYTES] === BINARY_TAG) {
    const seq = h.readDoubleLE(HEADER_BYTES + 1);
    return Number.isSafeInteger(seq) && seq > 0;
  }
  return h[HEADER_BYTES] === JSON_OPEN[0] && h[HEADER_BYTES + 1] === JSON_OPEN[1];
}
