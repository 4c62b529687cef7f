/**
 * The 512-byte headers of a POSIX ustar archive (IEEE Std 1003.1 "pax", ustar format), so that a backup
 * opens with `tar` as well: regular files only, names up to 255 bytes (prefix + name), sizes under 8 GiB.
 */
export const BLOCK = 512;

/** A file entry's header fields. */
export interface TarHeader {
  path: string;
  size: number;
  /** Permission bits (e.g. 0o600 for a key file). */
  mode: number;
  /** Modification time, epoch seconds. */
  mtime: number;
}

const MAX_SIZE = 8 * 1024 ** 3 - 1;

function writeString(buf: Buffer, text: string, at: number, len: number): void {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length > len) throw new Error(`tar field too long: ${text}`);
  bytes.copy(buf, at);
}

function writeOctal(buf: Buffer, n: number, at: number, len: number): void {
  writeString(buf, n.toString(8).padStart(len - 1, "0"), at, len - 1);
}

/** Splits `p` into ustar's prefix (155 bytes) and name (100 bytes) at a "/". */
function splitPath(p: string): { prefix: string; name: string } {
  if (Buffer.byteLength(p) <= 100) return { prefix: "", name: p };
  for (let i = p.indexOf("/"); i !== -1; i = p.indexOf("/", i + 1)) {
    const prefix = p.slice(0, i);
    const name = p.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  throw new Error(`path too long for a ustar archive: ${p}`);
}

/** Sum of the header's bytes with the checksum field read as spaces. */
function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum;
}

/** The header block of a regular file. */
export function encodeHeader(h: TarHeader): Buffer {
  if (h.size > MAX_SIZE) throw new Error(`file too large for a ustar archive: ${h.path}`);
  const block = Buffer.alloc(BLOCK);
  const { prefix, name } = splitPath(h.path);
  writeString(block, name, 0, 100);
  writeOctal(block, h.mode & 0o7777, 100, 8);
  writeOctal(block, 0, 108, 8);
  writeOctal(block, 0, 116, 8);
  writeOctal(block, h.size, 124, 12);
  writeOctal(block, Math.max(0, Math.floor(h.mtime)), 136, 12);
  block[156] = 0x30; // "0": regular file
  writeString(block, "ustar\0", 257, 6);
  writeString(block, "00", 263, 2);
  writeString(block, prefix, 345, 155);
  writeString(block, checksum(block).toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return block;
}

function readString(block: Buffer, at: number, len: number): string {
  const field = block.subarray(at, at + len);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? len : end).toString("utf8");
}

function readOctal(block: Buffer, at: number, len: number, what: string): number {
  const text = readString(block, at, len).trim();
  if (!/^[0-7]+$/.test(text)) throw new Error(`bad ${what} field in a tar header`);
  return parseInt(text, 8);
}

/** True if every byte is zero (a padding, or the blocks that end an archive). */
export function isZeros(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** Reads a regular file's header; throws on a damaged header or another entry type. */
export function decodeHeader(block: Buffer): TarHeader {
  // the checksum field is not part of its own sum: its form is checked whole, as encodeHeader writes it
  const field = block.toString("latin1", 148, 156);
  if (!/^[0-7]{6}\0 $/.test(field) || parseInt(field.slice(0, 6), 8) !== checksum(block))
    throw new Error("tar header checksum mismatch");
  if (readString(block, 257, 6) !== "ustar") throw new Error("not a ustar header");
  if (block[156] !== 0x30 && block[156] !== 0) throw new Error("tar entry is not a regular file");
  const name = readString(block, 0, 100);
  const prefix = readString(block, 345, 155);
  return {
    path: prefix ? `${prefix}/${name}` : name,
    size: readOctal(block, 124, 12, "size"),
    mode: readOctal(block, 100, 8, "mode"),
    mtime: readOctal(block, 136, 12, "mtime"),
  };
}

/** Zero bytes that pad `size` bytes of content to a whole block. */
export const paddingOf = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;
