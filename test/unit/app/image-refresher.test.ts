import { expect } from "chai";
import { ImageRefresher } from "../../../src/app/index-image";
import type { StoreStats } from "../../../src/store/graph-store";

/** A refresher without a timer over a store whose durable seq and indexes' seq the test sets. */
function refresher(
  state: { durableSeq: number; indexed: number | undefined },
  saved: number[],
): ImageRefresher {
  const store = { stats: async () => ({ durableSeq: state.durableSeq }) as StoreStats };
  return new ImageRefresher(
    0,
    store,
    () => state.indexed,
    () => void saved.push(state.indexed ?? -1),
  );
}

describe("app/ImageRefresher: the image of the derived indexes written while the service runs", () => {
  it("writes one once the indexes are filled, then again only when a compaction passes it", async () => {
    const state: { durableSeq: number; indexed: number | undefined } = { durableSeq: 0, indexed: undefined };
    const saved: number[] = [];
    const r = refresher(state, saved);
    await r.tick();
    expect(saved, "not while the indexes are filled").to.deep.equal([]);
    state.indexed = 10;
    await r.tick();
    expect(saved, "the first image of this run").to.deep.equal([10]);
    state.indexed = 25;
    await r.tick();
    expect(saved, "still usable after a crash: no compaction since").to.deep.equal([10]);
    state.durableSeq = 20;
    await r.tick();
    expect(saved, "a compaction at 20 made it too old").to.deep.equal([10, 25]);
    await r.tick();
    expect(saved).to.deep.equal([10, 25]);
    r.stop();
  });
});
