import { expect } from "chai";
import type { HistoryRecord, RowTuple } from "../../../../src/ngsi-ld/temporal/history-record";
import { SEGMENT_MS } from "../../../../src/ngsi-ld/temporal/segment-ledger";
import { segmentGraphIri } from "../../../../src/ngsi-ld/temporal/segment-graph";
import { SegmentSealer } from "../../../../src/ngsi-ld/temporal/segment-sealer";
import { TemporalIndex } from "../../../../src/ngsi-ld/temporal/temporal-index";

const H = Date.parse("2024-01-01T08:00:00Z");
const A = "https://example.org/speed";
const row = (iid: number, t: number): RowTuple => [A, iid, t, t, t, iid, '{"type":"Property"}'];

/** An index with `n` entities, each with one instance in hour H (all dirty), and a sealer over it. */
function setup(n: number, sliceMs?: number, lastWriteAt?: () => number) {
  const ix = new TemporalIndex();
  for (let i = 0; i < n; i++) ix.apply({ op: "put", t: "", e: `urn:e:${i}`, at: 1, r: [row(i + 1, H)] });
  const commits: string[][] = [];
  const sealer = new SegmentSealer(ix, {
    store: {
      commit: async (_tenant, writes) => {
        commits.push(writes.map((w) => w.graph));
        return Promise.resolve({}) as never;
      },
    },
    record: async (r: HistoryRecord) => ix.apply(r),
    everyMs: 60_000,
    graceMs: 300_000,
    sliceMs,
    burst: lastWriteAt ? { lastWriteAt, quietMs: 2_000, maxDeferMs: 60_000 } : undefined,
  });
  const dirty = () => [...ix.ledger.dirty()].length;
  return { sealer, commits, dirty, ix };
}

/** Gives the first `n` entities an instance in the hour after H, which closes their hour H. */
function closeHour(ix: TemporalIndex, n: number): void {
  for (let i = 0; i < n; i++)
    ix.apply({ op: "put", t: "", e: `urn:e:${i}`, at: 1, r: [row(30_000 + i, H + SEGMENT_MS + 1)] });
}

describe("temporal: segment sealer", () => {
  it("seals open hours only when forced, and clears them once the seal is recorded", async () => {
    const { sealer, commits, dirty } = setup(3);
    expect(await sealer.sweep(false, H + SEGMENT_MS / 2)).to.equal(0); // the hour is still open
    expect(dirty()).to.equal(3);
    expect(await sealer.sweep(true, H + SEGMENT_MS / 2)).to.equal(3);
    expect(commits.flat()).to.have.length(3);
    expect(dirty()).to.equal(0);
  });

  it("puts a timed sweep off during a write burst, seals after the pause, and a forced sweep never waits", async () => {
    let lastWrite = 0;
    const { sealer, commits, dirty, ix } = setup(3, undefined, () => lastWrite);
    closeHour(ix, 3); // hour H is closed for all three
    const now = H + 2 * SEGMENT_MS;
    lastWrite = now - 500; // but a write came 0.5 s ago
    expect(await sealer.tick(now)).to.equal(0);
    expect(commits).to.have.length(0);
    expect(dirty()).to.equal(6);
    expect(await sealer.tick(now + 2_000)).to.equal(3); // 2.5 s without a write: hour H of each
    expect(commits.flat()).to.deep.equal([0, 1, 2].map((i) => segmentGraphIri(`urn:e:${i}`, H)));
  });

  it("seals during a burst that lasts longer than the longest deferral", async () => {
    let now = H + 2 * SEGMENT_MS;
    const { sealer, ix } = setup(3, undefined, () => now - 100); // a write 0.1 s before every tick
    closeHour(ix, 3);
    for (let i = 0; i < 6; i++, now += 10_000) expect(await sealer.tick(now)).to.equal(0);
    expect(await sealer.tick(now)).to.equal(3); // 60 s put off: it seals anyway
  });

  it("stops between batches at the deadline and leaves the rest dirty (shutdown budget)", async () => {
    const { sealer, dirty } = setup(600); // 64 segments per batch: ten batches
    expect(await sealer.sweep(true, H, 0)).to.equal(0); // deadline already passed
    expect(dirty()).to.equal(600);
    await sealer.close(); // within the budget: everything
    expect(dirty()).to.equal(0);
  });

  it("scans in slices that let other work run, and still seals every closed hour and no open one", async () => {
    const { sealer, commits, dirty, ix } = setup(5000, 0); // sliceMs 0: let the event loop in at every clock read
    // half of them get an instance in the next hour: their hour H is closed, the next one still open
    for (let i = 0; i < 2500; i++)
      ix.apply({ op: "put", t: "", e: `urn:e:${i}`, at: 1, r: [row(10_000 + i, H + SEGMENT_MS + 1)] });
    let interleaved = 0;
    let sweeping = true;
    const tick = (): void => {
      if (!sweeping) return;
      interleaved++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const written = await sealer.sweep(false, H + SEGMENT_MS + 60_000);
    sweeping = false;
    expect(written).to.equal(2500); // hour H of the entities with a later instance
    expect(new Set(commits.flat())).to.deep.equal(
      new Set(Array.from({ length: 2500 }, (_, i) => segmentGraphIri(`urn:e:${i}`, H))),
    );
    expect(dirty()).to.equal(5000); // hour H of the others (touched just now, not quiet) and the open hours
    expect(interleaved).to.be.greaterThan(10);
  });

  it("keeps a segment touched between two slices dirty with its newer version", async () => {
    const { sealer, dirty, ix } = setup(2000, 0);
    const sweep = sealer.sweep(true, H + SEGMENT_MS / 2);
    // lands while the sweep runs: a new instance in every sealed hour, after the scan read its version
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 2000; i++)
      ix.apply({ op: "put", t: "", e: `urn:e:${i}`, at: 2, r: [row(20_000 + i, H + 1)] });
    await sweep;
    expect(dirty()).to.be.greaterThan(0);
    expect(await sealer.sweep(true, H + SEGMENT_MS / 2)).to.be.greaterThan(0);
    expect(dirty()).to.equal(0);
  });
});
