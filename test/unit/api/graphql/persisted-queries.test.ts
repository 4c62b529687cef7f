import { expect } from "chai";
import { GraphQLError } from "graphql";
import { PersistedQueries, sha256 } from "../../../../src/api/graphql/persisted-queries";

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as GraphQLError).extensions.code;
  }
  return undefined;
};

describe("PersistedQueries", () => {
  const q = "{ cameras { totalCount } }";
  const ext = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

  it("passes a plain query through", () => {
    expect(new PersistedQueries().resolve(q, undefined)).to.equal(q);
  });

  it("answers an unknown hash with PERSISTED_QUERY_NOT_FOUND, then knows it once sent with its query", () => {
    const p = new PersistedQueries();
    expect(code(() => p.resolve(undefined, ext(sha256(q))))).to.equal("PERSISTED_QUERY_NOT_FOUND");
    expect(p.resolve(q, ext(sha256(q)))).to.equal(q);
    expect(p.resolve(undefined, ext(sha256(q)))).to.equal(q);
  });

  it("refuses a hash that does not match, and a malformed extension", () => {
    const p = new PersistedQueries();
    expect(code(() => p.resolve(q, ext(sha256("other"))))).to.equal("PERSISTED_QUERY_HASH_MISMATCH");
    expect(code(() => p.resolve(q, ext("abc")))).to.equal("INVALID_REQUEST");
  });

  it("forgets the least recently used past its bound", () => {
    const p = new PersistedQueries(2);
    for (const t of ["{a}", "{b}", "{c}"]) p.resolve(t, ext(sha256(t)));
    expect(code(() => p.resolve(undefined, ext(sha256("{a}"))))).to.equal("PERSISTED_QUERY_NOT_FOUND");
    expect(p.resolve(undefined, ext(sha256("{c}")))).to.equal("{c}");
  });
});
