import fs from "node:fs";
import path from "node:path";

/** The journal records of a store's data dir: file, offset and payload of each (length + checksum framing). */
export function journalRecords(dataDir: string): { file: string; offset: number; payload: Buffer }[] {
  const dir = path.join(dataDir, "store");
  const out: { file: string; offset: number; payload: Buffer }[] = [];
  for (const f of fs
    .readdirSync(dir)
    .filter((x) => /^journal-\d+\.log$/.test(x))
    .sort()) {
    const file = path.join(dir, f);
    const buf = fs.readFileSync(file);
    for (let at = 0; at + 8 <= buf.length;) {
      const len = buf.readUInt32LE(at);
      if (len === 0) break; // the zeros written ahead
      out.push({ file, offset: at, payload: buf.subarray(at + 8, at + 8 + len) });
      at += 8 + len;
    }
  }
  return out;
}

/** Flips one bit inside the payload of the first journal record that holds `text`. */
export function damageRecordHolding(dataDir: string, text: string): void {
  const r = journalRecords(dataDir).find((x) => x.payload.includes(text));
  if (!r) throw new Error(`no journal record holds ${text}`);
  const buf = fs.readFileSync(r.file);
  buf[r.offset + 8 + 12] ^= 0x20;
  fs.writeFileSync(r.file, buf);
}
