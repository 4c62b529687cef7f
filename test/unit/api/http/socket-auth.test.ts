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

const viewer: Principal = { id: "v", kind: "user", role: "viewer", tenants: ["cityA"] };
const auth = {
  seen: [] as Credential[],
  async authenticate(c: Credential): Promise<Principal> {
    this.seen.push(c);
    if (c.bearer === "good" || c.apiKey === "key") return viewer;
    throw unauthorized("Invalid token");
  },
};
const upgrade = (url: string, headers: Record<string, string> = {}) =>
  ({ url, headers }) as unknown as IncomingMessage;

describe("api/http/socket-auth", () => {
  it("takes the token from the query, the Authorization header or X-API-Key, and checks tenant and action", async () => {
    expect(await authenticateUpgrade(auth, upgrade("/ws?token=good&tenant=cityA"))).to.equal(viewer);
    expect(
      await authenticateUpgrade(
        auth,
        upgrade("/ws", { authorization: "Bearer good", "ngsild-tenant": "cityA" }),
      ),
    ).to.equal(viewer);
    const other = await authenticateUpgrade(auth, upgrade("/ws?token=good&tenant=cityB")).catch(
      (e: AppError) => e,
    );
    expect(closeCodeOf(other)).to.equal(4403);
    const write = await authenticateUpgrade(auth, upgrade("/ws?token=good&tenant=cityA"), "write").catch(
      (e: AppError) => e,
    );
    expect(closeCodeOf(write)).to.equal(4403);
    const bad = await authenticateUpgrade(auth, upgrade("/ws?token=bad")).catch((e: AppError) => e);
    expect(closeCodeOf(bad)).to.equal(4401);
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
    expect((await authenticateUpgrade(undefined, upgrade("/ws"))).role).to.equal("admin");
    expect(closeCodeOf(new AppError("TooManyRequests", "x"))).to.equal(4429);
    expect(closeCodeOf(new Error("boom"))).to.equal(1011);
  });
});
