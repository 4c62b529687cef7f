import { expect } from "chai";
import nodeHttp from "node:http";
import type { AddressInfo } from "node:net";
import { http, linkTo, startTestApp, type TestApp } from "../helpers/test-app";
import { until } from "../helpers/report-fixtures";

const ENTITIES = "/ngsi-ld/v1/entities";
const SUBS = "/ngsi-ld/v1/subscriptions";
const REGS = "/ngsi-ld/v1/csourceRegistrations";
type Json = Record<string, unknown>;
const CONTEXT = JSON.stringify({ "@context": { speed: "https://example.org/speed" } });

/** An HTTP server on `host` answering with `handler`, counting every request by method and path. */
async function server(
  host: string,
  handler: (req: nodeHttp.IncomingMessage, res: nodeHttp.ServerResponse) => void,
) {
  const got: string[] = [];
  const s = nodeHttp.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      got.push(`${req.method} ${req.url}`);
      handler(req, res);
    });
  });
  await new Promise<void>((r) => s.listen(0, host, r));
  return {
    url: `http://${host}:${(s.address() as AddressInfo).port}`,
    got,
    close: () => new Promise<void>((r) => s.close(() => r())),
  };
}

const problem = (r: { body: unknown }) => r.body as Json;

/**
 * Hardening: redirects and host names do not lead the broker's own requests past the outbound policy.
 * 127.0.0.1 stands for an internal address (denied), 127.0.0.2 for an allowed host whose server answers
 * with redirects to it.
 */
describe("outbound policy: redirects and names resolved at delivery", function () {
  this.timeout(30_000);
  let app: TestApp;
  let internal: Awaited<ReturnType<typeof server>>;
  let front: Awaited<ReturnType<typeof server>>;

  before(async () => {
    internal = await server("127.0.0.1", (_req, res) => {
      res.setHeader("Content-Type", "application/ld+json");
      res.end(CONTEXT);
    });
    front = await server("127.0.0.2", (req, res) => {
      const to = (url: string) => void res.writeHead(302, { Location: url }).end();
      if (req.url === "/ctx.jsonld")
        return void res.setHeader("Content-Type", "application/ld+json").end(CONTEXT);
      if (req.url === "/text") return void res.end("hello");
      if (req.url === "/to-front") return to("/ctx.jsonld");
      if (req.url === "/to-closed") return to("http://127.0.0.1:9/ctx.jsonld");
      to(`${internal.url}${req.url}`);
    });
    app = await startTestApp({ OUTBOUND_ALLOW_LOOPBACK: "on", OUTBOUND_DENY: "127.0.0.1" });
  });
  after(async () => {
    await app.destroy();
    await internal.close();
    await front.close();
  });

  it("answers a @context that redirects to a refused address with the one 503 of any failed download, and sends nothing there", async () => {
    const answer = async (p: string) => {
      const r = await http(app.url, "GET", `${ENTITIES}?type=Vehicle`, undefined, {
        Link: linkTo(`${front.url}${p}`),
      });
      return { status: r.status, detail: String(problem(r).detail).replace(front.url + p, "URL") };
    };
    const open = await answer("/open.jsonld");
    expect(open.status).to.equal(503);
    expect(internal.got).to.deep.equal([]);
    // an open port, a closed port and an answer that is not a context read the same
    expect(await answer("/to-closed")).to.deep.equal(open);
    expect(await answer("/text")).to.deep.equal(open);
    expect(open.detail).to.equal("The @context URL could not be retrieved");
    // a redirect that stays where the policy allows is followed
    expect((await answer("/to-front")).status).to.equal(200);
    expect(front.got).to.include("GET /ctx.jsonld");
  });

  it("does not follow a notification endpoint's redirect", async () => {
    const id = "urn:ngsi-ld:Subscription:redirected";
    const sub = await http(app.url, "POST", SUBS, {
      id,
      type: "Subscription",
      entities: [{ type: "Vehicle" }],
      notification: { endpoint: { uri: `${front.url}/notify` } },
    });
    expect(sub.status).to.equal(201);
    const e = { id: "urn:ngsi-ld:Vehicle:n1", type: "Vehicle", speed: { type: "Property", value: 1 } };
    expect((await http(app.url, "POST", ENTITIES, e)).status).to.equal(201);
    await until(() => front.got.includes("POST /notify"), 8000, "the notification");
    await new Promise((r) => setTimeout(r, 300));
    expect(internal.got).to.deep.equal([]);
    const status = (await http(app.url, "GET", `${SUBS}/${id}`)).body as { notification: Json };
    expect(status.notification.lastFailure).to.be.a("string");
    expect((await http(app.url, "DELETE", `${SUBS}/${id}`)).status).to.equal(204);
  });

  it("does not follow a context source's redirect", async () => {
    const reg = await http(app.url, "POST", REGS, {
      id: "urn:ngsi-ld:ContextSourceRegistration:redirected",
      type: "ContextSourceRegistration",
      information: [{ entities: [{ type: "Truck" }] }],
      endpoint: `${front.url}/source`,
    });
    expect(reg.status).to.equal(201);
    const q = await http(app.url, "GET", `${ENTITIES}?type=Truck`);
    expect(q.status).to.equal(200);
    expect(q.body).to.deep.equal([]);
    expect(q.headers.get("ngsild-warning")).to.contain("redirected");
    expect(front.got.some((g) => g.startsWith("GET /source/ngsi-ld/v1/entities"))).to.equal(true);
    expect(internal.got).to.deep.equal([]);
  });
});

/** Creation-time checks: what the policy refuses is a 400 when a client names it, whatever its spelling. */
describe("outbound policy at creation: names as they resolve", function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ OUTBOUND_ALLOW_LOOPBACK: "off" });
  });
  after(async () => app.destroy());

  it("refuses LOCALHOST. (a trailing dot) as a subscription, csource subscription and registration endpoint, storing nothing", async () => {
    const port = new URL(app.url).port;
    for (const uri of [`http://LOCALHOST.:${port}/`, "http://LOCALHOST.:9999/", "http://localhost..:9999/"]) {
      const sub = await http(app.url, "POST", SUBS, {
        type: "Subscription",
        entities: [{ type: "Vehicle" }],
        notification: { endpoint: { uri } },
      });
      expect(sub.status, uri).to.equal(400);
      expect(problem(sub).detail).to.match(/is not allowed/);
      const csub = await http(app.url, "POST", "/ngsi-ld/v1/csourceSubscriptions", {
        type: "Subscription",
        entities: [{ type: "Vehicle" }],
        notification: { endpoint: { uri } },
      });
      expect(csub.status, uri).to.equal(400);
      const reg = await http(app.url, "POST", REGS, {
        type: "ContextSourceRegistration",
        information: [{ entities: [{ type: "Vehicle" }] }],
        endpoint: uri,
      });
      expect(reg.status, uri).to.equal(400);
      expect(problem(reg).detail).to.match(/endpoint .* is not allowed/);
    }
    expect((await http(app.url, "GET", SUBS)).body).to.deep.equal([]);
    expect((await http(app.url, "GET", "/ngsi-ld/v1/csourceSubscriptions")).body).to.deep.equal([]);
    expect((await http(app.url, "GET", `${REGS}?type=Vehicle`)).body).to.deep.equal([]);
  });
});
