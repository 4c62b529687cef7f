import { expect } from "chai";
import { SharedMessage } from "../../../../src/api/http/shared-message";

describe("SharedMessage", () => {
  it("puts each head after the opening brace, and gives the same Buffer for the same head", () => {
    const m = new SharedMessage(JSON.stringify({ type: "alert", data: { id: "Ä1" } }));
    const a = m.with('{"subscription":"sub-1",');
    expect(JSON.parse(a.toString())).to.deep.equal({
      subscription: "sub-1",
      type: "alert",
      data: { id: "Ä1" },
    });
    expect(m.with('{"subscription":"sub-1",')).to.equal(a);
    expect(JSON.parse(m.with('{"subscription":"s2",').toString()).subscription).to.equal("s2");
  });
});
