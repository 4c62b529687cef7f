import { expect } from "chai";
import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { outboundAgents } from "../../../src/jobs/outbound-agents";
import { outboundFetch } from "../../../src/jobs/outbound-fetch";
import { OutboundPolicy } from "../../../src/jobs/outbound-policy";
import { postJson } from "../../../src/jobs/json-post";

/** A server on `host` counting requests; `/go?to=URL` answers 302 to URL, anything else 200 "ok". */
async function server(host: string) {
  const hits: string[] = [];
  const s = http.createServer((req, res) => {
    req.resume();
    hits.push(`${req.method} ${req.url}`);
    const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    if (to) res.writeHead(302, { Location: to }).end();
    else res.end("ok");
  });
  await new Promise<void>((r) => s.listen(0, host, r));
  return {
    port: (s.address() as AddressInfo).port,
    hits,
    close: () => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r()))),
  };
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail("resolved"),
    (e: Error) => e,
  );

/**
 * The outbound policy's agents: every connection is checked against the address it is made to, after
 * name resolution (127.0.0.1 is denied here and stands for an internal address; 127.0.0.2 is allowed).
 */
describe("jobs/OutboundAgents and outboundFetch", () => {
  const policy = new OutboundPolicy({ allowLoopback: true, deny: ["127.0.0.1"] });
  const agents = outboundAgents(policy);
  const lookup = dns.lookup;
  let internal: Awaited<ReturnType<typeof server>>;
  let allowed: Awaited<ReturnType<typeof server>>;

  before(async () => {
    internal = await server("127.0.0.1");
    allowed = await server("127.0.0.2");
    // two names: one resolves to the denied address, one to the allowed
    const fake = (name: string) =>
      ({ "internal.example": "127.0.0.1", "allowed.example": "127.0.0.2" })[name.toLowerCase()];
    type Cb = (err: Error | null, a: string | dns.LookupAddress[], family?: number) => void;
    const real = lookup as unknown as (name: string, opts: dns.LookupOptions, cb: Cb) => void;
    (dns as { lookup: unknown }).lookup = (name: string, opts: dns.LookupOptions, cb: Cb) => {
      const a = fake(name);
      if (!a) return real(name, opts, cb);
      if (opts.all) cb(null, [{ address: a, family: 4 }]);
      else cb(null, a, 4);
    };
  });
  after(async () => {
    (dns as { lookup: unknown }).lookup = lookup;
    agents.close();
    await internal.close();
    await allowed.close();
  });

  it("refuses a name that resolves to a refused address, with the address it would connect to", async () => {
    const e = await rejection(outboundFetch(agents, `http://internal.example:${internal.port}/x`));
    expect(e.message).to.match(/not allowed: an address on the deny list/);
    const ok = await outboundFetch(agents, `http://allowed.example:${allowed.port}/y`);
    expect(await ok.text()).to.equal("ok");
    expect(internal.hits).to.deep.equal([]);
  });

  it("refuses literal addresses and localhost in any spelling (LOCALHOST., [::ffff:127.0.0.1])", async () => {
    for (const host of ["127.0.0.1", "LOCALHOST.", "localhost", "[::ffff:127.0.0.1]"]) {
      const e = await rejection(outboundFetch(agents, `http://${host}:${internal.port}/z`));
      expect(e.message, host).to.match(/not allowed/);
    }
    const post = await rejection(
      postJson(`http://internal.example:${internal.port}/hook`, "{}", {}, 2000, agents),
    );
    expect(post.message).to.match(/not allowed/);
    expect(internal.hits).to.deep.equal([]);
  });

  it("answers a redirect as it is by default, and checks every hop it follows", async () => {
    const to = (u: string) => `http://127.0.0.2:${allowed.port}/go?to=${encodeURIComponent(u)}`;
    const first = await outboundFetch(agents, to(`http://127.0.0.1:${internal.port}/a`));
    expect(first.status).to.equal(302);
    for (const target of [
      `http://127.0.0.1:${internal.port}/b`,
      `http://internal.example:${internal.port}/c`,
    ]) {
      const e = await rejection(outboundFetch(agents, to(target), { maxRedirects: 5 }));
      expect(e.message, target).to.match(/not allowed/);
    }
    const followed = await outboundFetch(agents, to(`http://allowed.example:${allowed.port}/d`), {
      maxRedirects: 5,
    });
    expect(await followed.text()).to.equal("ok");
    expect(allowed.hits).to.include("GET /d");
    expect(internal.hits).to.deep.equal([]);
  });
});
