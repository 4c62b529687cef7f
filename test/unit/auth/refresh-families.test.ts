import { expect } from "chai";
import type { CredentialKind } from "../../../src/auth/credential-records";
import type { CredentialRepository } from "../../../src/auth/credential-repository";
import { RefreshFamilies } from "../../../src/auth/refresh-families";

/** A repository that keeps what it is given, to show what would be stored. */
function memoryRepo(): { repo: CredentialRepository; stored: Map<string, unknown> } {
  const stored = new Map<string, unknown>();
  const repo = {
    put: async (kind: CredentialKind, r: { id: string }) =>
      void stored.set(`${kind}:${r.id}`, JSON.parse(JSON.stringify(r))),
    remove: async (kind: CredentialKind, id: string) => void stored.delete(`${kind}:${id}`),
  } as unknown as CredentialRepository;
  return { repo, stored };
}

describe("auth/refresh-families", () => {
  it("stores only hashes, rotates, and revokes the family when a replaced token comes back", async () => {
    const { repo, stored } = memoryRepo();
    const f = new RefreshFamilies(repo, 60_000);
    const { token, family } = await f.start("u1");
    expect(JSON.stringify([...stored.values()])).to.not.include(token.split(".")[1]);
    const next = await f.rotate(token);
    expect(next.token).to.not.equal(token);
    const err = await f.rotate(token).catch((e: Error) => e);
    expect((err as Error).message).to.match(/reused/);
    expect(f.isRevoked(family.id)).to.equal(true);
    expect(((await f.rotate(next.token).catch((e: Error) => e)) as Error).message).to.equal(
      "Refresh token revoked",
    );
  });

  it("refuses malformed, unknown and expired tokens, and drops expired families at load", async () => {
    const { repo, stored } = memoryRepo();
    const f = new RefreshFamilies(repo, 1000);
    const t0 = Date.now();
    const { token, family } = await f.start("u1", t0);
    expect(((await f.rotate("x").catch((e: Error) => e)) as Error).message).to.equal(
      "Malformed refresh token",
    );
    const forged = `${family.id}.${"A".repeat(43)}`;
    expect(((await f.rotate(forged).catch((e: Error) => e)) as Error).message).to.equal(
      "Invalid refresh token",
    );
    expect(f.isRevoked(family.id)).to.equal(false);
    expect(((await f.rotate(token, t0 + 2000).catch((e: Error) => e)) as Error).message).to.equal(
      "Refresh token expired",
    );
    const g = new RefreshFamilies(repo, 1000);
    await g.load([family], t0 + 2000);
    expect(stored.size).to.equal(0);
  });
});
