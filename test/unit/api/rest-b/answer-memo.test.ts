import { expect } from "chai";
import { AnswerMemo } from "../../../../src/api/rest-b/answer-memo";
import { HistoryVersions } from "../../../../src/domain/traffic/projection/history-versions";

describe("api/rest-b answer memo and domain history versions", () => {
  it("renders once per key and gives the kept text after", () => {
    const memo = new AnswerMemo(4, 1000);
    let renders = 0;
    const render = () => `{"n":${++renders}}`;
    expect(memo.get("a", render)).to.equal('{"n":1}');
    expect(memo.get("a", render)).to.equal('{"n":1}');
    expect(memo.get("b", render)).to.equal('{"n":2}');
    expect(renders).to.equal(2);
  });

  it("drops the least recently used answer past the entry or size bound, and never keeps an oversized one", () => {
    const memo = new AnswerMemo(2, 10);
    let renders = 0;
    const text = (s: string) => () => (renders++, s);
    memo.get("a", text("aaaa"));
    memo.get("b", text("bbbb"));
    memo.get("a", text("xxxx")); // a used again: b is now the oldest
    memo.get("c", text("cccc")); // three entries: b goes
    expect(renders).to.equal(3);
    expect(memo.get("a", text("new"))).to.equal("aaaa");
    expect(memo.get("b", text("bbb2"))).to.equal("bbb2");
    const before = renders;
    expect(memo.get("big", text("0123456789ab"))).to.equal("0123456789ab");
    memo.get("big", text("0123456789ab"));
    expect(renders).to.equal(before + 2);
  });

  it("changes an entity's version with each change of its history, and every version on a retention pass", () => {
    const v = new HistoryVersions();
    const a0 = v.of("a");
    const b0 = v.of("b");
    v.changed("a");
    expect(v.of("a")).to.not.equal(a0);
    expect(v.of("b")).to.equal(b0);
    const a1 = v.of("a");
    v.changed();
    expect(v.of("a")).to.not.equal(a1);
    expect(v.of("b")).to.not.equal(b0);
  });
});
