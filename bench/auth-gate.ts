import { mkdtempSync, rmSync } from "node:fs";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import Koa, { type Context } from "koa";
import compose from "koa-compose";
import { requestId } from "../src/api/http/request-id";
import { authGates } from "../src/app/auth";
import { AccessTokens } from "../src/auth/access-tokens";
import { AuthService } from "../src/auth/auth-service";
import type { CredentialRepository } from "../src/auth/credential-repository";
import type { AuthParts } from "../src/auth/open-auth";
import { RateLimits } from "../src/auth/rate-limits";
import { RefreshFamilies } from "../src/auth/refresh-families";
import { SigningKeys } from "../src/auth/signing-keys";
import { UserDirectory } from "../src/auth/user-directory";

/**
 * `node dist/bench/auth-gate.js`: the request pipeline's first steps (request id, auth gate, rate limit)
 * alone, in process, for GET /ngsi-ld/v1/entities/{id} with a cached bearer token and an in-memory counter,
 * against the same with AUTH=off: main-thread CPU per request of each and their difference, the gate's own
 * cost. No sockets, no store: a figure that a busy machine disturbs far less than `bench:auth`'s.
 * BENCH_GATE_REQUESTS (default 200000) requests per round, BENCH_GATE_ROUNDS (default 8) rounds of
 * each, alternating, the best kept.
 */

const N = Number(process.env.BENCH_GATE_REQUESTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_GATE_ROUNDS ?? 8);

async function identity(dir: string): Promise<{ parts: AuthParts; token: string }> {
  const repo = { remove: async () => undefined } as unknown as CredentialRepository;
  const keys = SigningKeys.open(dir, 3_600_000, 86_400_000);
  const directory = new UserDirectory(repo);
  const user = {
    id: "u1",
    username: "bench",
    passwordHash: "",
    role: "viewer" as const,
    tier: "premium" as const,
    tenants: [],
    createdAt: new Date().toISOString(),
  };
  directory.load([user], []);
  const families = new RefreshFamilies(repo, 86_400_000);
  await families.load([
    { id: "f1", userId: "u1", current: "", used: [], expiresAt: Date.now() + 86_400_000 },
  ]);
  const tokens = new AccessTokens(keys, 3600);
  const audit = () => undefined;
  const service = new AuthService(directory, families, tokens, audit);
  const token = await tokens.issue({ ...user, kind: "user", name: "bench", session: "f1" });
  await tokens.verify(token);
  const rateLimits = new RateLimits({
    tierLimits: { free: 100, basic: 1000, premium: 1_000_000_000, enterprise: 0 },
    prefix: "bench",
  });
  const parts = { service, keys, rateLimits, audit, serviceToken: async () => token, close: async () => {} };
  return { parts, token };
}

/** A Koa context of a GET with `headers`, on a response that is never sent. */
function contextOf(app: Koa, url: string, headers: Record<string, string>): Context {
  const req = new IncomingMessage(new Socket());
  req.method = "GET";
  req.url = url;
  req.headers = headers;
  return app.createContext(req, new ServerResponse(req)) as Context;
}

/** CPU µs per request of `run` over N requests, on 1,000 contexts used in turn (little garbage besides the gates'). */
async function measure(app: Koa, run: (ctx: Context) => Promise<unknown>, headers: Record<string, string>) {
  const ctxs = Array.from({ length: 1000 }, (_, i) =>
    contextOf(app, `/ngsi-ld/v1/entities/urn:ngsi-ld:Thing:${i}`, headers),
  );
  const t0 = process.cpuUsage();
  for (let done = 0; done < N; done += ctxs.length) for (const ctx of ctxs) await run(ctx);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / N;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "citygraph-gate-"));
  try {
    const { parts, token } = await identity(dir);
    const app = new Koa();
    const end = (ctx: Context) => {
      ctx.status = 200;
      return Promise.resolve();
    };
    const chain = (gates: Koa.Middleware[]) => compose([requestId(), ...gates, end]);
    const off = chain(authGates(undefined, []));
    const on = chain(authGates(parts, []));
    const probe = contextOf(app, "/ngsi-ld/v1/entities/urn:x", { authorization: `Bearer ${token}` });
    await on(probe);
    if (String(probe.response.get("X-RateLimit-Limit")) !== "1000000000")
      throw new Error("the gate did not count");
    let offUs = Infinity;
    let onUs = Infinity;
    // alternating rounds, the best of each kept
    for (let r = 0; r < ROUNDS; r++) {
      offUs = Math.min(offUs, await measure(app, (c) => off(c), {}));
      onUs = Math.min(onUs, await measure(app, (c) => on(c), { authorization: `Bearer ${token}` }));
    }
    process.stdout.write(
      `auth gate, in process (${N} requests, best of ${ROUNDS}): AUTH=off ${offUs.toFixed(2)} µs, ` +
        `bearer + rate limit ${onUs.toFixed(2)} µs per request: the gate costs ${(onUs - offUs).toFixed(2)} µs\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
