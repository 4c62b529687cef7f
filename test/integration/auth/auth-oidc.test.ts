import { expect } from "chai";
import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT } from "jose";
import { http as call, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, entity } from "./auth-client";

describe("auth: tokens of an external OIDC issuer (JWT_ISSUER, JWKS_URL)", function () {
  this.timeout(60_000);
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const issuer = "https://sso.example.test/realms/city";
  let jwks: http.Server;
  let app: TestApp;

  before(async () => {
    const jwk = { ...publicKey.export({ format: "jwk" }), kid: "kc-1", alg: "ES256", use: "sig" };
    jwks = http.createServer((_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => jwks.listen(0, "127.0.0.1", () => r()));
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "admin-secret-5",
      JWT_ISSUER: issuer,
      JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/certs`,
      JWT_AUDIENCE: "citygraph",
      RATE_LIMIT_PREFIX: `t-${process.pid}-oidc`,
    });
  });
  after(async () => {
    await app.destroy();
    jwks.close();
  });

  const token = (claims: Record<string, unknown>, iss = issuer, aud = "citygraph") =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: "kc-1" })
      .setSubject("kc-user-1")
      .setIssuer(iss)
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
  const LD = { "Content-Type": "application/ld+json" };

  it("takes the role from Keycloak's realm roles; viewer without one", async () => {
    const op = await token({
      realm_access: { roles: ["offline_access", "operator"] },
      preferred_username: "kc",
    });
    const w = await call(app.url, "POST", "/ngsi-ld/v1/entities", entity("urn:ngsi-ld:Thing:kc1"), {
      ...LD,
      ...bearer(op),
    });
    expect(w.status, w.text).to.equal(201);
    const plain = await token({});
    expect(
      (await call(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, bearer(plain))).status,
    ).to.equal(200);
    const w2 = await call(app.url, "POST", "/ngsi-ld/v1/entities", entity("urn:ngsi-ld:Thing:kc2"), {
      ...LD,
      ...bearer(plain),
    });
    expect(w2.status).to.equal(403);
  });

  it("refuses a wrong audience, a wrong signature and another issuer with 401", async () => {
    const wrongAud = await call(
      app.url,
      "GET",
      "/ngsi-ld/v1/entities?type=Thing",
      undefined,
      bearer(await token({}, issuer, "other")),
    );
    expect(wrongAud.status).to.equal(401);
    expect((wrongAud.body as { detail: string }).detail).to.equal("Token claim aud is not valid");
    const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: "kc-1" })
      .setIssuer(issuer)
      .setAudience("citygraph")
      .setSubject("x")
      .setExpirationTime("5m")
      .sign(other);
    expect(
      (await call(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, bearer(forged))).status,
    ).to.equal(401);
    const elsewhere = await call(
      app.url,
      "GET",
      "/ngsi-ld/v1/entities?type=Thing",
      undefined,
      bearer(await token({}, "https://evil.test")),
    );
    expect(elsewhere.status).to.equal(401);
    expect((elsewhere.body as { detail: string }).detail).to.equal("Token algorithm ES256 is not accepted");
  });
});
