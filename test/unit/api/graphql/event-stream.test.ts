import { expect } from "chai";
import { EventStream } from "../../../../src/api/graphql/event-stream";

describe("EventStream", () => {
  it("hands pushed values to a waiting reader, in order", async () => {
    const s = new EventStream<number>(
      10,
      () => undefined,
      () => undefined,
    );
    const first = s.next();
    s.push(1);
    s.push(2);
    expect(await first).to.deep.equal({ value: 1, done: false });
    expect(await s.next()).to.deep.equal({ value: 2, done: false });
  });

  it("coalesces by key while values wait (newest wins)", async () => {
    const s = new EventStream<{ z: string; v: number }>(
      10,
      () => undefined,
      () => undefined,
      (x) => x.z,
    );
    s.push({ z: "a", v: 1 });
    s.push({ z: "b", v: 1 });
    s.push({ z: "a", v: 2 });
    expect((await s.next()).value).to.deep.equal({ z: "a", v: 2 });
    expect((await s.next()).value).to.deep.equal({ z: "b", v: 1 });
  });

  it("ends and reports an overflow past its bound; return() ends it once", async () => {
    let ended = 0;
    let overflow = 0;
    const s = new EventStream<number>(
      2,
      () => ended++,
      () => overflow++,
    );
    s.push(1);
    s.push(2);
    s.push(3);
    expect(overflow).to.equal(1);
    expect(ended).to.equal(1);
    expect(await s.next()).to.deep.equal({ value: undefined, done: true });
    await s.return();
    expect(ended).to.equal(1);
  });
});
