import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { postJson } from "../../../src/jobs/json-post";

describe("jobs/postJson (alert webhooks and the SMS gateway)", () => {
  let server: http.Server;
  let base = "";
  const got: { headers: http.IncomingHttpHeaders; body: string; socket: unknown }[] = [];
  let answer = 204;
  let holdMs = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        got.push({ headers: req.headers, body, socket: req.socket });
        setTimeout(() => res.writeHead(answer).end(), holdMs);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("POSTs the JSON with its length and headers, and reuses the connection", async () => {
    got.length = 0;
    await postJson(`${base}/hook`, '{"a":"é"}', { "X-Test": "1" }, 2000);
    await postJson(`${base}/hook`, '{"b":2}', {}, 2000);
    expect(got[0].body).to.equal('{"a":"é"}');
    expect(got[0].headers["content-type"]).to.equal("application/json");
    expect(got[0].headers["content-length"]).to.equal("10");
    expect(got[0].headers["x-test"]).to.equal("1");
    expect(got[1].socket).to.equal(got[0].socket);
  });

  it("throws on a non-2xx answer, a refused connection and a timeout", async () => {
    answer = 500;
    await postJson(`${base}/hook`, "{}", {}, 2000).then(
      () => expect.fail("resolved"),
      (e: Error) => expect(e.message).to.match(/HTTP 500/),
    );
    answer = 204;
    holdMs = 500;
    await postJson(`${base}/hook`, "{}", {}, 100).then(
      () => expect.fail("resolved"),
      (e: Error) => expect(e.message).to.match(/no answer within 100 ms/),
    );
    holdMs = 0;
    await postJson("http://127.0.0.1:1/hook", "{}", {}, 2000).then(
      () => expect.fail("resolved"),
      (e: Error) => expect(e.message).to.match(/ECONNREFUSED/),
    );
    await postJson("ftp://127.0.0.1/x", "{}", {}, 2000).then(
      () => expect.fail("resolved"),
      (e: Error) => expect(e.message).to.match(/not an http/),
    );
  });
});
