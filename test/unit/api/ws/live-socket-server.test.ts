import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { LiveAuth } from "../../../../src/api/http/live-auth";
import { LiveSocketServer } from "../../../../src/api/ws/live-socket-server";
import { AppError } from "../../../../src/errors";
import { LocalLiveBus } from "../../../../src/events/live-bus";
import { NO_REPLAY } from "../../../../src/events/live-replay";
import { WsProbe } from "../../../integration/helpers/live-clients";

/** Tokens: "good" (no expiry), "short" (expires in 200 ms), "viewer-only" (forbidden), anything else unauthorized. */
/** The test's tokens, from `?token=` or `Authorization: Bearer`. */
const tokenOf = (req: http.IncomingMessage) =>
  new URL(req.url ?? "/", "http://x").searchParams.get("token") ??
  req.headers.authorization?.replace(/^Bearer /, "");
const check = async (token: string | undefined) => {
  const principal = { id: "u", kind: "user" as const, role: "viewer" as const, tenants: [] };
  if (token === "good") return { principal };
  if (token === "short") return { principal, expiresAt: Date.now() + 200 };
  if (token === "viewer-only") throw new AppError("AccessDenied", "No permission for live events");
  throw new AppError("Unauthorized", token ? "Invalid token" : "A token is required");
};
const auth: LiveAuth = {
  upgrade: (req) => check(tokenOf(req)),
  connection: (params) => check(params?.authorization as string | undefined),
  mayWrite: () => false,
  mayReport: () => false,
};

describe("LiveSocketServer: the auth hook", () => {
  let server: http.Server;
  let live: LiveSocketServer;
  let base: string;

  before(async () => {
    live = new LiveSocketServer({
      bus: new LocalLiveBus(),
      replay: NO_REPLAY,
      auth,
      limits: { maxSubscriptions: 5, queueMessages: 8, messagesPerSecond: 20 },
      heartbeatMs: 30_000,
      maxFrameBytes: 65_536,
      log: () => undefined,
    });
    server = http.createServer();
    server.on("upgrade", (req, socket, head) => live.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await live.close();
    await new Promise((r) => server.close(r));
  });

  it("accepts a good token in ?token= or in the Authorization header", async () => {
    for (const p of [
      await WsProbe.open(`${base}/ws?token=good`),
      await WsProbe.open(`${base}/ws`, { headers: { authorization: "Bearer good" } }),
    ]) {
      p.send({ type: "ping" });
      await p.next((m) => m.type === "pong");
      p.close();
    }
  });

  it("closes with 4401 without a token or with a bad one, 4403 without permission", async () => {
    expect((await (await WsProbe.open(`${base}/ws`)).closedWith()).code).to.equal(4401);
    const bad = await (await WsProbe.open(`${base}/ws?token=forged`)).closedWith();
    expect(bad).to.deep.equal({ code: 4401, reason: "Invalid token" });
    expect((await (await WsProbe.open(`${base}/ws?token=viewer-only`)).closedWith()).code).to.equal(4403);
  });

  it("closes with 4401 when the token expires", async () => {
    const p = await WsProbe.open(`${base}/ws?token=short`);
    expect(await p.closedWith(2000)).to.deep.equal({ code: 4401, reason: "Token expired" });
  });
});
