import zlib from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A decompression bomb: a valid grayscale PNG of `side` x `side` pixels, all black, whose rows of zeros
 * deflate about 1000:1 (30000x30000 = 900 megapixels in about 1 MB).
 */
export async function pngBombAsync(side = 30000): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(0, 9);
  const row = Buffer.alloc(side + 1);
  const data = await new Promise<Buffer>((resolve, reject) => {
    const d = zlib.createDeflate({ level: 9 });
    const out: Buffer[] = [];
    d.on("data", (c: Buffer) => out.push(c));
    d.on("end", () => resolve(Buffer.concat(out)));
    d.on("error", reject);
    let y = 0;
    const pump = (): void => {
      while (y < side) {
        y++;
        if (!d.write(row)) {
          d.once("drain", pump);
          return;
        }
      }
      d.end();
    };
    pump();
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", data),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A zip archive of 100 MB of zeros (a "zip bomb" in miniature): not an image. */
export function zipBomb(): Buffer {
  const data = zlib.deflateRawSync(Buffer.alloc(100 * 1024 * 1024), { level: 9 });
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(8, 8); // deflate
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(100 * 1024 * 1024, 22);
  header.writeUInt16LE(8, 26);
  return Buffer.concat([header, Buffer.from("zero.bin"), data]);
}
