import { expect } from "chai";
import { parseCommand } from "../../../../src/api/ws/ws-protocol";
import { AppError } from "../../../../src/errors";

const fails = (text: string, kind: string, message: RegExp) => {
  try {
    parseCommand(text);
  } catch (e) {
    expect(e).to.be.instanceOf(AppError);
    expect((e as AppError).kind).to.equal(kind);
    expect((e as AppError).message).to.match(message);
    return;
  }
  expect.fail(`${text} was accepted`);
};

describe("ws-protocol parseCommand", () => {
  it("parses subscribe with channels, zones, severity (lower-cased) and since", () => {
    const c = parseCommand(
      JSON.stringify({
        type: "subscribe",
        id: "s1",
        channels: ["traffic", "accidents", "traffic"],
        zones: ["quan-1"],
        severity: ["SEVERE"],
        since: "2026-01-01T00:00:00Z",
      }),
    );
    expect(c).to.deep.equal({
      type: "subscribe",
      id: "s1",
      channels: ["traffic", "accidents"],
      zones: ["quan-1"],
      severity: ["severe"],
      since: Date.parse("2026-01-01T00:00:00Z"),
    });
  });

  it("parses unsubscribe and ping", () => {
    expect(parseCommand('{"type":"unsubscribe","id":"s1"}')).to.deep.equal({
      type: "unsubscribe",
      id: "s1",
      channels: undefined,
    });
    expect(parseCommand('{"type":"ping"}')).to.deep.equal({ type: "ping" });
  });

  it("refuses what is not a known message with a clear error", () => {
    fails("nope", "InvalidRequest", /JSON object/);
    fails("[1]", "InvalidRequest", /JSON object/);
    fails('{"type":"dance"}', "InvalidRequest", /Unknown message type "dance"/);
    fails('{"type":"subscribe"}', "BadRequestData", /channels must be a non-empty array/);
    fails('{"type":"subscribe","channels":["parking"]}', "BadRequestData", /Unknown channel "parking"/);
    fails(
      '{"type":"subscribe","channels":["accidents"],"severity":["bad"]}',
      "BadRequestData",
      /Unknown severity/,
    );
    fails(
      '{"type":"subscribe","channels":["traffic"],"zones":"quan-1"}',
      "BadRequestData",
      /zones must be an array/,
    );
    fails('{"type":"subscribe","channels":["traffic"],"since":"yesterday"}', "BadRequestData", /ISO 8601/);
    fails(
      `{"type":"subscribe","channels":["traffic"],"zones":${JSON.stringify(Array(101).fill("z"))}}`,
      "BadRequestData",
      /at most 100/,
    );
    fails('{"type":"subscribe","id":"a b","channels":["traffic"]}', "BadRequestData", /id must be/);
  });
});
