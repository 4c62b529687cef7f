import { expect } from "chai";
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SignJWT } from "jose";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login } from "./auth-client";

const ENTITIES = "/ngsi-ld/v1/entities?type=Thing";

describe("auth: tokens, refresh rotation and bad credentials (AUTH=on)", function () {
  this.timeout(60_000);
  let app: TestApp;
  let kid: string;
  let privateKey: ReturnType<typeof createPrivateKey>;
  let adminId: string;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "admin-secret-2",
      RATE_LIMIT_PREFIX: `t-${process.pid}-tok`,
    });
    const stored = JSON.parse(
      fs.readFileSync(path.join(app.dataDir, "auth", "signing-keys.json"), "utf8"),
    ) as {
      keys: { kid: string; jwk: object }[];
    };
    kid = stored.keys[0].kid;
    privateKey = createPrivateKey({ key: stored.keys[0].jwk as never, format: "jwk" });
    const users = await http(
      app.url,
      "GET",
      "/v1/admin/users",
      undefined,
      bearer((await login(app.url, "admin", "admin-secret-2")).access_token),
    );
    adminId = (users.body as { users: { id: string }[] }).users[0].id;
  });
  after(() => app.destroy());

  const claims = () => ({ kind: "user", role: "admin", tier: "enterprise", ten: [] as string[] });
  const sign = (key = privateKey, k = kid, exp: string | number = "1h") =>
    new SignJWT(claims())
      .setProtectedHeader({ alg: "EdDSA", kid: k })
      .setSubject(adminId)
      .setIssuer("urn:citygraph")
      .setAudience("urn:citygraph")
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(key);

  async function refused(headers: Record<string, string>, detail: string | RegExp): Promise<void> {
    const r = await http(app.url, "GET", ENTITIES, undefined, headers);
    expect(r.status, r.text).to.equal(401);
    expect(r.headers.get("www-authenticate")).to.match(/^Bearer realm="citygraph"/);
    if (typeof detail === "string") expect((r.body as { detail: string }).detail).to.equal(detail);
    else expect((r.body as { detail: string }).detail).to.match(detail);
  }

  it("accepts a token signed with the service's key, as the test signs it", async () => {
    const r = await http(app.url, "GET", ENTITIES, undefined, bearer(await sign()));
    expect(r.status).to.equal(200);
  });

  it("refuses malformed, expired, never-expiring, wrongly signed, alg none, unknown-kid and oversized tokens with 401", async () => {
    await refused(bearer("not-a-jwt"), "Malformed token");
    await refused(bearer("a.b.c"), "Malformed token");
    await refused({ Authorization: "Basic YWRtaW46eA==" }, "Authorization must be 'Bearer <token>'");
    await refused(bearer(await sign(privateKey, kid, Math.floor(Date.now() / 1000) - 60)), "Token expired");
    const forever = await new SignJWT(claims())
      .setProtectedHeader({ alg: "EdDSA", kid })
      .setSubject(adminId)
      .setIssuer("urn:citygraph")
      .setAudience("urn:citygraph")
      .setIssuedAt()
      .sign(privateKey);
    await refused(bearer(forever), "Token lacks the exp claim");
    const other = generateKeyPairSync("ed25519").privateKey;
    await refused(bearer(await sign(other, kid)), "Token signature does not verify");
    await refused(bearer(await sign(other, "no-such-kid")), "Token signed by an unknown key");
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const none = `${b64({ alg: "none", kid })}.${b64({ sub: adminId, role: "admin", ten: [] })}.`;
    await refused(bearer(none), "Token algorithm none is not accepted");
    const hs = `${b64({ alg: "HS256", kid })}.${b64({ sub: adminId })}.c2ln`;
    await refused(bearer(hs), "Token algorithm HS256 is not accepted");
    await refused(bearer("x".repeat(9000)), "Token longer than 4096 characters");
    const huge = await http(app.url, "GET", ENTITIES, undefined, bearer("x".repeat(20_000)));
    expect(huge.status).to.equal(431);
  });

  it("refuses API keys of the wrong length or unknown with 401", async () => {
    await refused({ "X-API-Key": "cgk_short" }, "An API key is 47 characters long, this one 9");
    await refused({ "X-API-Key": `cgk_${"!".repeat(43)}` }, "Malformed API key");
    await refused({ "X-API-Key": `cgk_${"a".repeat(43)}` }, "Unknown or revoked API key");
  });

  it("answers bad login input with precise 4xx and the same 401 for unknown user and wrong password", async () => {
    const post = (body: string, type = "application/json") =>
      http(app.url, "POST", "/v1/auth/login", body, { "Content-Type": type });
    const notJson = await post("username=admin");
    expect(notJson.status).to.equal(400);
    expect((notJson.body as { error: { code: string } }).error.code).to.equal("INVALID_REQUEST");
    expect((await post("{}", "text/plain")).status).to.equal(415);
    const missing = await post(JSON.stringify({ username: "admin" }));
    expect(missing.status).to.equal(400);
    expect((missing.body as { error: { message: string } }).error.message).to.equal(
      "Field password is required",
    );
    expect((await post("[1]")).status).to.equal(400);
    const ctl = await post(JSON.stringify({ username: "adm\u0000in", password: "x" }));
    expect(ctl.status).to.equal(400);
    expect((ctl.body as { error: { details: { parameter: string } } }).error.details.parameter).to.equal(
      "username",
    );
    const wrong = await post(JSON.stringify({ username: "admin", password: "nope" }));
    const unknown = await post(JSON.stringify({ username: "nobody", password: "nope" }));
    expect(wrong.status).to.equal(401);
    expect(unknown.body).to.deep.equal(wrong.body);
  });

  it("rotates refresh tokens; a reused one is 401 and revokes its whole family", async () => {
    const first = await login(app.url, "admin", "admin-secret-2");
    const r1 = await http(app.url, "POST", "/v1/auth/refresh", { refresh_token: first.refresh_token });
    expect(r1.status).to.equal(200);
    const second = r1.body as {
      access_token: string;
      refresh_token: string;
      expires_in: number;
      token_type: string;
    };
    expect(second).to.include({ expires_in: 3600, token_type: "Bearer" });
    expect(second.refresh_token).to.not.equal(first.refresh_token);
    expect((await http(app.url, "GET", ENTITIES, undefined, bearer(second.access_token))).status).to.equal(
      200,
    );
    const reuse = await http(app.url, "POST", "/v1/auth/refresh", { refresh_token: first.refresh_token });
    expect(reuse.status).to.equal(401);
    expect((reuse.body as { error: { message: string } }).error.message).to.match(/reused/);
    const afterTheft = await http(app.url, "POST", "/v1/auth/refresh", {
      refresh_token: second.refresh_token,
    });
    expect(afterTheft.status).to.equal(401);
    await refused(bearer(second.access_token), "Token revoked");
    await refused(bearer(first.access_token), "Token revoked");
    const junk = await http(app.url, "POST", "/v1/auth/refresh", { refresh_token: "junk" });
    expect(junk.status).to.equal(401);
  });

  it("logs out by refresh token or by bearer token; B's login has no refresh_token", async () => {
    const a = await login(app.url, "admin", "admin-secret-2");
    const out = await http(app.url, "POST", "/v1/auth/logout", { refresh_token: a.refresh_token });
    expect(out.status).to.equal(204);
    expect(
      (await http(app.url, "POST", "/v1/auth/refresh", { refresh_token: a.refresh_token })).status,
    ).to.equal(401);
    await refused(bearer(a.access_token), "Token revoked");
    const b = await http(app.url, "POST", "/api/v1/auth/login", {
      username: "admin",
      password: "admin-secret-2",
    });
    expect(b.status).to.equal(200);
    expect(b.body).to.have.keys("access_token", "expires_in", "token_type");
    const token = (b.body as { access_token: string }).access_token;
    expect((await http(app.url, "POST", "/api/v1/auth/logout", undefined, bearer(token))).status).to.equal(
      204,
    );
    await refused(bearer(token), "Token revoked");
    expect((await http(app.url, "POST", "/v1/auth/logout")).status).to.equal(400);
  });

  it("rotates the signing key without logging anybody out", async () => {
    const before = await login(app.url, "admin", "admin-secret-2");
    const rot = await http(
      app.url,
      "POST",
      "/v1/admin/signing-keys/rotate",
      undefined,
      bearer(before.access_token),
    );
    expect(rot.status).to.equal(200);
    const jwks = (await http(app.url, "GET", "/.well-known/jwks.json")).body as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).to.deep.equal([kid, (rot.body as { kid: string }).kid]);
    expect((await http(app.url, "GET", ENTITIES, undefined, bearer(before.access_token))).status).to.equal(
      200,
    );
    const after = await login(app.url, "admin", "admin-secret-2");
    const header = JSON.parse(Buffer.from(after.access_token.split(".")[0], "base64url").toString()) as {
      kid: string;
    };
    expect(header.kid).to.equal((rot.body as { kid: string }).kid);
  });
});
