import { expect } from "chai";
import type { IncomingMessage } from "node:http";
import {
  authenticateConnectionParams,
  authenticateUpgrade,
  closeCodeOf,
} from "../../../../src/api/http/socket-auth";
import type { Credential } from "../../../../src/auth/auth-service";
import type { Principal } from "../../../../src/auth/principal";
import { unauthorized } from "../../../../src/auth/token-errors";
import { AppError } from "../../../../src/errors";

const viewer: Principal = { id: "v", kind: "user", role: "viewer", tenants: ["", "cityA"] };
const cityAOnly: Principal = { id: "a", kind: "api-key", role: "admin", tenants: ["cityA"] };
const auth = {
  seen: [] as Credential[],
  async authenticate(c: Credential): Promise<Principal> {
    this.seen.push(c);
    if (c.bearer === "good" || c.apiKey === "key") return viewer;
    if (c.bearer === "city-a") return cityAOnly;
    throw unauthorized("Invalid token");
  },
};
const codeOf = (p: Promise<unknown>) => p.then(() => 0, closeCodeOf);
const upgrade = (url: string, headers: Record<string, string> = {}) =>
  ({ url, headers }) as unknown as IncomingMessage;

describe("api/http/socket-auth", () => {
  it("takes the token from the query, the Authorization header or X-API-Key, and checks action", async () => {
    expect(await authenticateUpgrade(auth, upgrade("/ws?token=good"), "ws")).to.equal(viewer);
    expect(await authenticateUpgrade(auth, upgrade("/ws", { authorization: "Bearer good" }), "ws")).to.equal(
      viewer,
    );
    expect(await authenticateUpgrade(auth, upgrade("/ws", { "x-api-key": "key" }), "ws")).to.equal(viewer);
    expect(await codeOf(authenticateUpgrade(auth, upgrade("/ws?token=good"), "ws", "write"))).to.equal(4403);
    expect(await codeOf(authenticateUpgrade(auth, upgrade("/ws?token=bad"), "ws"))).to.equal(4401);
  });

  it("holds a traffic socket to the default tenant: 4403 without it, 4400 for another tenant named", async () => {
    expect(await codeOf(authenticateUpgrade(auth, upgrade("/ws?token=city-a"), "ws"))).to.equal(4403);
    const named = upgrade("/ws?token=city-a", { "ngsild-tenant": "cityA" });
    expect(await codeOf(authenticateUpgrade(auth, named, "ws"))).to.equal(4403);
    expect(await codeOf(authenticateUpgrade(auth, upgrade("/ws?token=good&tenant=cityA"), "ws"))).to.equal(
      4400,
    );
    const header = upgrade("/ws?token=good", { "ngsild-tenant": "cityA" });
    expect(await codeOf(authenticateUpgrade(auth, header, "ws"))).to.equal(4400);
    expect(await codeOf(authenticateUpgrade(undefined, header, "ws"))).to.equal(4400);
    const gql = (t: string, req = upgrade("/graphql")) =>
      authenticateConnectionParams(auth, { authorization: `Bearer ${t}` }, req);
    expect(await codeOf(gql("city-a"))).to.equal(4403);
    expect(await codeOf(gql("good", upgrade("/graphql", { "ngsild-tenant": "cityA" })))).to.equal(4400);
    expect(await gql("good")).to.equal(viewer);
  });

  it("reads graphql-ws connection parameters: authorization 'Bearer <token>' or apiKey", async () => {
    expect(await authenticateConnectionParams(auth, { authorization: "Bearer good" })).to.equal(viewer);
    expect(await authenticateConnectionParams(auth, { apiKey: "key" })).to.equal(viewer);
    const e = await authenticateConnectionParams(auth, { authorization: "Basic x" }).catch(
      (x: AppError) => x,
    );
    expect(closeCodeOf(e)).to.equal(4401);
  });

  it("is the anonymous admin with auth off, and maps other errors to close codes", async () => {
    expect((await authenticateUpgrade(undefined, upgrade("/ws"), "ws")).role).to.equal("admin");
    expect(closeCodeOf(new AppError("TooManyRequests", "x"))).to.equal(4429);
    expect(closeCodeOf(new Error("boom"))).to.equal(1011);
  });
});
