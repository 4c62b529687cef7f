import { expect } from "chai";
import { KeyedLock } from "../../../../src/ngsi-ld/entities/keyed-lock";

const tick = () => new Promise((r) => setTimeout(r, 1));

describe("KeyedLock", () => {
  it("serializes read-modify-write on one key and keeps other keys parallel", async () => {
    const lock = new KeyedLock();
    let counter = 0;
    const order: string[] = [];
    const incr = () =>
      lock.run("a", async () => {
        const v = counter;
        await tick();
        counter = v + 1;
      });
    const other = lock.run("b", async () => {
      order.push("b");
    });
    await Promise.all([incr(), incr(), incr(), incr(), other]);
    expect(counter).to.equal(4);
    expect(order).to.deep.equal(["b"]);
  });

  it("takes several keys without deadlock in any order", async () => {
    const lock = new KeyedLock();
    const log: number[] = [];
    await Promise.all([
      lock.runAll(["x", "y"], async () => {
        await tick();
        log.push(1);
      }),
      lock.runAll(["y", "x"], async () => {
        log.push(2);
      }),
    ]);
    expect(log).to.deep.equal([1, 2]);
  });

  it("releases the key when the work throws", async () => {
    const lock = new KeyedLock();
    await lock.run("k", async () => Promise.reject(new Error("boom"))).catch(() => undefined);
    expect(await lock.run("k", async () => 5)).to.equal(5);
  });
});
