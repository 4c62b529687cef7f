import { expect } from "chai";
import { login, userToken } from "../auth/auth-client";
import { WsProbe } from "../helpers/live-clients";
import { startTestApp, type TestApp } from "../helpers/test-app";

/** Opens a graphql-ws socket with `token` and answers its first message, or its close. */
async function graphqlWs(base: string, token: string): Promise<{ probe: WsProbe; acked: boolean }> {
  const probe = await WsProbe.open(`${base}/graphql`, {}, "graphql-transport-ws");
  probe.send({ type: "connection_init", payload: { authorization: `Bearer ${token}` } });
  const acked = await probe
    .next((m) => m.type === "connection_ack", 3000)
    .then(
      () => true,
      () => false,
    );
  return { probe, acked };
}

/** Hardening: one credential holds a bounded number of push sockets, and openings count in its rate limit. */
describe("push sockets per principal", function () {
  this.timeout(60_000);
  let app: TestApp;
  let viewer: string;
  let freeTier: string;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "sockets-admin-pw-1",
      WS_MAX_SOCKETS_PER_PRINCIPAL: "3",
      RATE_LIMIT_FREE: "4",
      RATE_LIMIT_PREFIX: `t-${process.pid}-sockets`,
    });
    const admin = (await login(app.url, "admin", "sockets-admin-pw-1")).access_token;
    viewer = await userToken(app.url, admin, { username: "many-sockets", role: "viewer", tier: "premium" });
    freeTier = await userToken(app.url, admin, { username: "free-sockets", role: "viewer", tier: "free" });
  });
  after(async () => app?.destroy());

  it("closes a socket past WS_MAX_SOCKETS_PER_PRINCIPAL with 4429, over /ws and graphql-ws together", async () => {
    const open = [
      await WsProbe.open(`${app.url}/ws?token=${viewer}`),
      await WsProbe.open(`${app.url}/ws?token=${viewer}`),
    ];
    const g = await graphqlWs(app.url, viewer);
    expect(g.acked).to.equal(true);
    const extra = await WsProbe.open(`${app.url}/ws?token=${viewer}`);
    expect(await extra.closedWith()).to.deep.equal({
      code: 4429,
      reason: "Too many open sockets for this user (at most 3)",
    });
    const extraGql = await graphqlWs(app.url, viewer);
    expect(extraGql.acked).to.equal(false);
    expect((await extraGql.probe.closedWith()).code).to.equal(4429);
    // a closed socket gives its slot back
    open[0].close();
    await open[0].closedWith();
    await new Promise((r) => setTimeout(r, 100));
    const again = await WsProbe.open(`${app.url}/ws?token=${viewer}`);
    again.send({ type: "ping" });
    await again.next((m) => m.type === "pong");
    for (const p of [open[1], g.probe, again]) p.close();
  });

  it("counts each opening in the principal's rate limit", async () => {
    // the login counted nothing; four openings use up the free tier's four requests of this test
    for (let i = 0; i < 4; i++) {
      const p = await WsProbe.open(`${app.url}/ws?token=${freeTier}`);
      p.send({ type: "ping" });
      await p.next((m) => m.type === "pong");
      p.close();
      await p.closedWith();
    }
    const refused = await WsProbe.open(`${app.url}/ws?token=${freeTier}`);
    const closed = await refused.closedWith();
    expect(closed.code).to.equal(4429);
    expect(closed.reason).to.match(/^Rate limit of 4 requests exceeded/);
  });
});
