import { expect } from "chai";
import { OutboundQueue } from "../../../../src/api/http/outbound-queue";

describe("OutboundQueue", () => {
  it("is bounded: push past the bound answers false", () => {
    const q = new OutboundQueue(2);
    expect(q.push("a")).to.equal(true);
    expect(q.push("b")).to.equal(true);
    expect(q.push("c")).to.equal(false);
    expect(q.size).to.equal(2);
  });

  it("newest wins for a key: a waiting message with the same key is replaced in place", () => {
    const q = new OutboundQueue(3);
    q.push("zone1 v1", "z1");
    q.push("alert");
    q.push("zone1 v2", "z1");
    q.push("zone1 v3", "z1");
    expect(q.size).to.equal(2);
    expect([q.shift(), q.shift(), q.shift()]).to.deep.equal(["zone1 v3", "alert", undefined]);
    // once sent, the key is free again
    q.push("zone1 v4", "z1");
    expect(q.shift()).to.equal("zone1 v4");
  });

  it("keeps order over many pushes and shifts", () => {
    const q = new OutboundQueue(5000);
    for (let i = 0; i < 3000; i++) q.push(String(i));
    const out: string[] = [];
    for (let i = 0; i < 3000; i++) out.push(q.shift() as string);
    expect(out[0]).to.equal("0");
    expect(out[2999]).to.equal("2999");
    expect(q.size).to.equal(0);
  });
});
