import { expect } from "chai";
import { arr, either, input, int, num, str, text } from "../../../../src/api/rest/json-schema";
import { checker, requestAjv } from "../../../../src/api/rest/request-validation";
import { AppError } from "../../../../src/errors";

const BODY = input(
  {
    name: either(text(1, 5), input({ first: str })),
    point: input({ lat: { ...num, maximum: 11, "x-messages": { maximum: "Too far north" } }, lon: num }, [
      "lat",
      "lon",
    ]),
    tags: arr(str, 2),
    n: int,
  },
  ["point"],
);

const refusal = (f: () => unknown): AppError => {
  try {
    f();
  } catch (e) {
    expect(e).to.be.instanceOf(AppError);
    return e as AppError;
  }
  return expect.fail("accepted") as never;
};

describe("api/rest: request validation", () => {
  const json = checker(requestAjv(false), BODY, "body");
  const form = checker(requestAjv(true), input({ n: int, on: { type: "boolean" } }, ["n"]), "form");

  it("gives the input back, of its schema's type", () => {
    const b = json({ point: { lat: 10, lon: 106 }, n: 3, extra: true });
    const lat: number = b.point.lat;
    expect(lat).to.equal(10);
    expect(b.n).to.equal(3);
  });

  it("does not coerce JSON, and names nested values by their path", () => {
    const e = refusal(() => json({ point: { lat: "10", lon: 106 } }));
    expect(e.kind).to.equal("BadRequestData");
    expect(e.details).to.deep.equal({ parameter: "point.lat", value: "10", expected: "a number" });
    expect(refusal(() => json({ point: { lat: 10 } })).details).to.deep.equal({ parameter: "point.lon" });
    expect(refusal(() => json({ point: { lat: 1, lon: 1 }, tags: ["a", 1] })).details.parameter).to.equal(
      "tags[1]",
    );
  });

  it("reads form text as the numbers and booleans its schema asks for", () => {
    expect(form({ n: "7", on: "true" })).to.deep.equal({ n: 7, on: true });
    expect(refusal(() => form({ n: "x" })).message).to.equal("Invalid value of n: must be integer");
    expect(refusal(() => form({})).kind).to.equal("InvalidRequest");
  });

  it("takes a schema's own message for a keyword, names the shapes of anyOf, and cuts long values", () => {
    const far = refusal(() => json({ point: { lat: 12, lon: 106 } }));
    expect(far.message).to.equal("Too far north");
    const name = refusal(() => json({ point: { lat: 1, lon: 1 }, name: 42 }));
    expect(name.details.parameter).to.equal("name");
    expect(name.message).to.match(/^Invalid value of name: expected/);
    const long = refusal(() => json({ point: { lat: 1, lon: 1 }, n: "x".repeat(300) }));
    expect(long.details.value).to.equal("x".repeat(200) + "...");
    const big = refusal(() => json({ point: { lat: 1, lon: 1 }, tags: Array(3).fill("x".repeat(300)) }));
    expect(big.details.value).to.equal("(an array of 3 items)");
  });
});

describe("api/rest: blank optional text", () => {
  const json = checker(requestAjv(false), BODY, "body");
  const withTitle = checker(
    requestAjv(false),
    input({ title: text(1, 5), note: text(1, 5) }, ["title"]),
    "body",
  );

  it("is absent, at any depth, in either shape of an anyOf", () => {
    expect(json({ point: { lat: 1, lon: 1 }, name: "" })).to.deep.equal({ point: { lat: 1, lon: 1 } });
    expect(json({ point: { lat: 1, lon: 1 }, name: { first: "  " } })).to.deep.equal({
      point: { lat: 1, lon: 1 },
      name: {},
    });
    expect(withTitle({ title: "ok", note: " " })).to.deep.equal({ title: "ok" });
  });

  it("stays a fault where the field is required or takes no text, and the input given is not changed", () => {
    const given = { title: "", note: "" };
    expect(refusal(() => withTitle(given)).details.parameter).to.equal("title");
    expect(given).to.deep.equal({ title: "", note: "" });
    expect(refusal(() => json({ point: { lat: 1, lon: 1 }, tags: "" })).details.parameter).to.equal("tags");
    expect(refusal(() => json({ point: { lat: 1, lon: 1 }, n: " " })).details.parameter).to.equal("n");
  });

  it("a fault inside an object alternative is named by its path and rule", () => {
    const e = refusal(() => json({ point: { lat: 1, lon: 1 }, name: { first: 5 } }));
    expect(e.message).to.equal("Invalid value of name.first: must be string");
    expect(e.details).to.deep.include({ parameter: "name.first", value: 5 });
    const long = refusal(() => json({ point: { lat: 1, lon: 1 }, name: "toolong" }));
    expect(long.message).to.equal("Invalid value of name: must NOT have more than 5 characters");
  });
});
