import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { PrincipalSlots } from "../../../../src/api/sparql/principal-slots";

describe("PrincipalSlots", () => {
  it("runs one query per key, queues two, refuses the next with its Retry-After; other keys run", async () => {
    const slots = new PrincipalSlots(1, 2, 7);
    const gates: (() => void)[] = [];
    const order: number[] = [];
    const job = (n: number) => () =>
      new Promise<number>((resolve) => {
        order.push(n);
        gates.push(() => resolve(n));
      });
    const a = [1, 2, 3].map((n) => slots.run("a", job(n)));
    const refused = await slots.run("a", job(4)).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(AppError);
    expect((refused as AppError).kind).to.equal("ServiceUnavailable");
    expect((refused as AppError).details.retry_after).to.equal(7);
    const b = slots.run("b", job(10));
    await Promise.resolve();
    expect(order).to.deep.equal([1, 10]);
    while (gates.length) {
      gates.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all([...a, b])).to.deep.equal([1, 2, 3, 10]);
    expect(order).to.deep.equal([1, 10, 2, 3]);
    expect(slots.running("a")).to.equal(0);
  });
});
