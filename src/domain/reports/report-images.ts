import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { badRequest } from "../../errors";

/** §2, §8: stored images fit 1920x1080. */
export const MAX_WIDTH = 1920;
export const MAX_HEIGHT = 1080;
/**
 * Largest input accepted, in pixels (sharp's limitInputPixels): 50 megapixels holds any phone photo
 * (a 200 MP sensor bins to 50 MP) and keeps a decompression bomb (30000x30000 = 900 MP) from being decoded.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
const FORMATS = new Set(["jpeg", "png", "webp", "heif", "avif", "gif", "tiff"]);

sharp.cache(false);

/**
 * One report image made safe to publish (§2 "stored as JPEG, reduced to at most 1920x1080, with embedded
 * metadata removed"): the EXIF orientation applied first (else a phone photo lies on its side once the
 * tag is gone), then resized to fit 1920x1080 and re-encoded as JPEG with no EXIF, XMP, ICC or comment
 * block (sharp keeps none unless asked). Anything that is not a whole image of a known format, or
 * larger than {@link MAX_INPUT_PIXELS}, is a 400.
 */
export async function normalizeImage(input: Buffer, index: number): Promise<Buffer> {
  const parameter = `images[${index}]`;
  let format: string | undefined;
  try {
    const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    format = meta.format;
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) throw new Error("too many pixels");
  } catch (e) {
    const big = /pixel/i.test((e as Error).message);
    throw badRequest(big ? `Image ${index} has too many pixels` : `Image ${index} is not an image`, {
      parameter,
      expected: big ? `at most ${MAX_INPUT_PIXELS} pixels` : "a JPEG, PNG, WebP, HEIF, GIF or TIFF image",
    });
  }
  if (!format || !FORMATS.has(format))
    throw badRequest(`Image ${index} is not a supported image`, {
      parameter,
      value: format,
      expected: "JPEG or PNG",
    });
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated" })
      .rotate()
      .resize(MAX_WIDTH, MAX_HEIGHT, { fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest(`Image ${index} could not be decoded (damaged or truncated)`, {
      parameter,
      expected: "a whole image",
    });
  }
}

/**
 * Report images on disk under `DATA_DIR/media`, named by the SHA-256 of their bytes, so a URL
 * (`/v1/media/<hash>.jpg`) always names the same picture and one picture is stored once.
 */
export class MediaStore {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Stores a JPEG; returns its file name `<sha256>.jpg`. Written to a temporary file, then renamed. */
  async put(jpeg: Buffer): Promise<string> {
    const name = createHash("sha256").update(jpeg).digest("hex") + ".jpg";
    const file = path.join(this.dir, name);
    if (fs.existsSync(file)) return name;
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.promises.writeFile(tmp, jpeg);
    await fs.promises.rename(tmp, file);
    return name;
  }

  /** The path of a stored file, or undefined for a name that is not one (no path tricks). */
  fileOf(name: string): string | undefined {
    if (!/^[0-9a-f]{64}\.jpg$/.test(name)) return undefined;
    const file = path.join(this.dir, name);
    return fs.existsSync(file) ? file : undefined;
  }
}
