import fs from "node:fs";
import path from "node:path";
import { deserialize, serialize } from "node:v8";
import { fsyncDir } from "../journal/journal-files";

/**
 * The image of the derived indexes (docs/decisions/0019-native-store.md "At start"): written at a clean
 * stop, with the journal seq of the last commit the indexes had applied, and read back by the next start
 * instead of decoding every entity graph, when the store holds exactly that seq. A start takes the file away
 * whether it uses it or not, so an image is only ever read by the start right after it was written; and
 * it names the build that wrote it, so a new version never reads an older one's indexes.
 *
 * The file: frames of `[u32 length][v8.serialize(value)]`, the header first; the indexes write and read
 * their own frames in an order they agree on.
 */
const FORMAT = "citygraph-index-image";
const VERSION = 1;

/** The folder and file of the image under DATA_DIR. */
export const INDEX_IMAGE_DIR = "indexes";
/** The image a start reads (in {@link INDEX_IMAGE_DIR}). */
export const INDEX_IMAGE_FILE = "derived.img";

/** What the header says. */
export interface IndexImageHeader {
  /** The journal seq of the last commit the indexes had applied. */
  seq: number;
  /** The build that wrote it ({@link buildStamp}). */
  build: string;
}

/**
 * The stamp `npm run build` writes into `dist/.build-stamp` (the time of the build), or undefined when the
 * service runs from a tree without one; images are neither written nor read then.
 */
export function buildStamp(): string | undefined {
  try {
    const stamp = fs.readFileSync(path.resolve(__dirname, "..", "..", "..", ".build-stamp"), "utf8").trim();
    return stamp === "" ? undefined : stamp;
  } catch {
    return undefined;
  }
}

/**
 * Writes the image durably (temp file, fsync, rename): the header, then each of `frames`. Every frame is
 * serialized before the first await, so the caller may change what they were taken from as soon as this
 * returns its promise; the file is written and synced on libuv's threads, or on this one when `blocking`
 * (a clean stop, whose deadline timer must not cut the write short). Resolves with the bytes written.
 */
export async function writeIndexImage(
  dataDir: string,
  header: IndexImageHeader,
  frames: Iterable<unknown>,
  name = INDEX_IMAGE_FILE,
  blocking = false,
): Promise<number> {
  const buffers: Buffer[] = [];
  let bytes = 0;
  const put = (value: unknown): void => {
    const body = serialize(value);
    const head = Buffer.allocUnsafe(4);
    head.writeUInt32LE(body.length);
    buffers.push(head, body);
    bytes += 4 + body.length;
  };
  put({ format: FORMAT, version: VERSION, ...header });
  for (const f of frames) put(f);
  const dir = path.join(dataDir, INDEX_IMAGE_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  const tmp = `${file}.tmp`;
  if (blocking) {
    const fd = fs.openSync(tmp, "w");
    try {
      for (const b of buffers) fs.writeSync(fd, b);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } else {
    const fh = await fs.promises.open(tmp, "w");
    try {
      for (const b of buffers) await fh.write(b);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, file);
  }
  fsyncDir(dir);
  return bytes;
}

/**
 * Distinct values an image refers to by number (lists of types, GeoProperty IRIs): most entities share
 * theirs, so each is written once.
 */
export class RefTable<T> {
  readonly values: T[] = [];
  private readonly refs = new Map<string, number>();

  /** The number of `value`, known by `key`; added at the end when new. */
  ref(key: string, value: T): number {
    let ref = this.refs.get(key);
    if (ref === undefined) {
      this.refs.set(key, (ref = this.values.length));
      this.values.push(value);
    }
    return ref;
  }
}

/** An image read back: its header and its frames in the order they were written. */
export interface IndexImage {
  header: IndexImageHeader;
  frames: Iterator<unknown>;
}

/**
 * Reads the image and removes it (and any temp file a stop cut short), durably, before it is used. Undefined
 * when there is none, or it is not one this code reads (format, version, a damaged header); damage further
 * on throws when those frames are read.
 */
export function takeIndexImage(dataDir: string): IndexImage | undefined {
  const dir = path.join(dataDir, INDEX_IMAGE_DIR);
  const file = path.join(dir, INDEX_IMAGE_FILE);
  if (!fs.existsSync(dir)) return undefined;
  let buf: Buffer | undefined;
  try {
    buf = fs.readFileSync(file);
  } catch {
    buf = undefined;
  }
  fs.rmSync(file, { force: true });
  fs.rmSync(`${file}.tmp`, { force: true });
  fsyncDir(dir);
  if (!buf) return undefined;
  const frames = framesOf(buf);
  let head: IteratorResult<unknown>;
  try {
    head = frames.next();
  } catch {
    return undefined;
  }
  const h = head.done
    ? undefined
    : (head.value as Partial<IndexImageHeader> & { format?: string; version?: number });
  if (
    h?.format !== FORMAT ||
    h.version !== VERSION ||
    typeof h.seq !== "number" ||
    typeof h.build !== "string"
  )
    return undefined;
  return { header: { seq: h.seq, build: h.build }, frames };
}

function* framesOf(buf: Buffer): Generator<unknown> {
  let at = 0;
  while (at < buf.length) {
    if (at + 4 > buf.length) throw new Error("index image: a frame is cut short");
    const n = buf.readUInt32LE(at);
    if (at + 4 + n > buf.length) throw new Error("index image: a frame is cut short");
    yield deserialize(buf.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
}
