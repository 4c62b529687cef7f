import { expect } from "chai";
import { execute, parse, specifiedRules, validate } from "graphql";
import { buildGraphqlSchema } from "../../../../src/api/graphql/build-schema";
import { ALIAS_COST, aliasLimit, costLimit } from "../../../../src/api/graphql/query-limits";

describe("GraphQL query limits", () => {
  const schema = buildGraphqlSchema();
  const errorsOf = (query: string, rule: ReturnType<typeof costLimit>) =>
    validate(schema, parse(query), [...specifiedRules, rule]).map((e) => e.extensions);

  it("counts an aliased field's extra execution in the cost", () => {
    // one camera lookup with three fields costs 4; the alias adds ALIAS_COST
    expect(errorsOf(`{ camera(id: "1") { id name status } }`, costLimit(4))).to.deep.equal([]);
    const aliased = errorsOf(`{ a: camera(id: "1") { id name status } }`, costLimit(4));
    expect(aliased).to.deep.equal([{ code: "QUERY_TOO_COMPLEX", cost: 4 + ALIAS_COST, maxCost: 4 }]);
  });

  it("counts aliases through fragments, per spread", () => {
    const q = `{ a: camera(id: "1") { ...F } b: camera(id: "2") { ...F } } fragment F on Camera { x: name y: id }`;
    expect(errorsOf(q, aliasLimit(6))).to.deep.equal([]);
    expect(errorsOf(q, aliasLimit(5))).to.deep.equal([
      { code: "TOO_MANY_ALIASES", aliases: 6, maxAliases: 5 },
    ]);
  });

  it("stops resolvers past the operation's deadline with QUERY_TIMEOUT", async () => {
    const r = await execute({
      schema,
      document: parse(`{ camera(id: "1") { id } }`),
      contextValue: { deadline: 0 },
    });
    expect(r.errors?.map((e) => e.extensions.code)).to.deep.equal(["QUERY_TIMEOUT"]);
  });
});
