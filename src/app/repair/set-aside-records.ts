import { salvageRecords, type Salvage } from "../../store/journal/record-salvage";
import type { JournalRecord } from "../../store/journal/record-codec";

/** A readable record of a set-aside file, as `npm run repair -- --list` shows it. */
export interface SetAsideRecord {
  seq: number;
  tenant: string;
  /** Each graph the commit wrote (its N-Triples), or dropped (`null`). */
  writes: JournalRecord["writes"];
}

/**
 * The records of a `.damaged-*` file (or of a damaged segment) that their checksums still vouch for, in
 * file order, with the spans that hold none (record-salvage.ts). Holds them all: a set-aside file is at
 * most a few journal segments.
 */
export function readSetAside(file: string): { records: SetAsideRecord[]; salvage: Salvage } {
  const records: SetAsideRecord[] = [];
  const salvage = salvageRecords<JournalRecord>(file, (r) => {
    if (typeof r.seq === "number" && Array.isArray(r.writes)) records.push(r);
  });
  return { records, salvage };
}
