import { expect } from "chai";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { bearer, login, userToken } from "../auth/auth-client";
import { startTestApp, type TestApp } from "../helpers/test-app";
import { WsProbe } from "../helpers/live-clients";

describe("push faces with authentication on", function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: string;
  let viewer: string;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "admin-password-123",
      ACCESS_TOKEN_TTL: "10s",
      SEED: "on",
    });
    admin = (await login(app.url, "admin", "admin-password-123")).access_token;
    viewer = await userToken(app.url, admin, { username: "vera", role: "viewer" });
  });
  after(async () => app.destroy());

  it("/ws: a valid token in ?token= or the header is let in; none or a forged one closes with 4401", async () => {
    for (const p of [
      await WsProbe.open(`${app.url}/ws?token=${viewer}`),
      await WsProbe.open(`${app.url}/ws`, { headers: bearer(viewer) }),
    ]) {
      p.send({ type: "ping" });
      await p.next((m) => m.type === "pong");
      p.close();
    }
    expect((await (await WsProbe.open(`${app.url}/ws`)).closedWith()).code).to.equal(4401);
    expect((await (await WsProbe.open(`${app.url}/ws?token=${viewer}x`)).closedWith()).code).to.equal(4401);
  });

  it("graphql-ws: the authorization connection parameter; without it the socket closes with 4401", async () => {
    const closes: number[] = [];
    const bad = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
      on: { closed: (e) => void closes.push((e as { code: number }).code) },
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(closes).to.deep.equal([4401]);
    await bad.dispose();
    const good = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${viewer}` },
    });
    const r = await new Promise<unknown>((resolve, reject) => {
      good.subscribe(
        { query: '{ camera(id: "0") { id } }' },
        { next: resolve, error: reject, complete: () => undefined },
      );
    });
    expect(r).to.deep.equal({ data: { camera: { id: "0" } } });
    await good.dispose();
  });

  it("GraphQL over HTTP: a viewer queries but may not change a camera's status (FORBIDDEN); an admin may", async () => {
    const post = (token: string, query: string) =>
      fetch(`${app.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer(token) },
        body: JSON.stringify({ query }),
      }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as { data?: unknown; errors?: { extensions: { code: string } }[] },
      }));
    expect((await post(viewer, `{ camera(id: "0") { id } }`)).body.data).to.deep.equal({
      camera: { id: "0" },
    });
    const denied = await post(
      viewer,
      `mutation { updateCameraStatus(id: "0", status: INACTIVE) { status } }`,
    );
    expect(denied.body.errors?.[0].extensions.code).to.equal("FORBIDDEN");
    const done = await post(admin, `mutation { updateCameraStatus(id: "0", status: INACTIVE) { status } }`);
    expect(done.body.data).to.deep.equal({ updateCameraStatus: { status: "INACTIVE" } });
    const anonymous = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"query":"{ weather { timestamp } }"}',
    });
    expect(anonymous.status).to.equal(401);
  });

  it("/ws: the socket is closed with 4401 when its token expires", async () => {
    const fresh = (await login(app.url, "vera", "pw-vera-123")).access_token;
    const p = await WsProbe.open(`${app.url}/ws?token=${fresh}`);
    expect(await p.closedWith(15_000)).to.deep.equal({ code: 4401, reason: "Token expired" });
  });
});
