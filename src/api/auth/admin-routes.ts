import type Router from "@koa/router";
import type { Context } from "koa";
import type { Audit } from "../../auth/audit";
import type { AuthService } from "../../auth/auth-service";
import type { ApiKeyRecord, UserRecord } from "../../auth/credential-records";
import { keyName, objectBody, password, role, tenants, tier, username } from "../../auth/input-rules";
import { checkNewPassword, MIN_NEW_PASSWORD } from "../../auth/password-policy";
import type { SigningKeys } from "../../auth/signing-keys";
import { AUTH_OFF_PRINCIPAL } from "../../auth/principal";
import { requestOf } from "../http/request-context";
import { jsonBody } from "./json-body";

const userView = (u: UserRecord) => ({
  id: u.id,
  username: u.username,
  role: u.role,
  tier: u.tier,
  tenants: u.tenants,
  created_at: u.createdAt,
});
const keyView = (k: ApiKeyRecord) => ({
  id: k.id,
  name: k.name,
  role: k.role,
  tier: k.tier,
  tenants: k.tenants,
  created_at: k.createdAt,
});

/**
 * User and API key management (docs/auth.md "Roles and permissions", variant A root; the gate lets only
 * admins in): `POST /v1/admin/users` `{username, password, role, tier, tenants?}` -> 201; `GET
 * /v1/admin/users`; `DELETE /v1/admin/users/{id}` (its logins are revoked) -> 204; `POST
 * /v1/admin/api-keys` `{name, role, tier, tenants?}` -> 201 `{id, key, ...}` (the key is shown this once);
 * `GET /v1/admin/api-keys`; `DELETE /v1/admin/api-keys/{id}` -> 204; `POST /v1/admin/signing-keys/rotate`
 * -> the new key id (older keys keep verifying until their tokens expire).
 */
export function registerAdminRoutes(
  router: Router,
  auth: AuthService,
  keys: SigningKeys,
  audit: Audit,
): void {
  const dir = auth.directory;
  const actor = (ctx: Context) => ({
    principal: (requestOf(ctx).principal ?? AUTH_OFF_PRINCIPAL).id,
    requestId: requestOf(ctx).id,
  });
  router.post("/v1/admin/users", async (ctx) => {
    const b = objectBody(await jsonBody(ctx));
    const name = username(b);
    const pw = password(b, MIN_NEW_PASSWORD);
    await checkNewPassword(pw, name);
    const u = await dir.createUser({
      username: name,
      password: pw,
      role: role(b),
      tier: tier(b),
      tenants: tenants(b),
    });
    audit("user-created", { ...actor(ctx), user: u.id, username: u.username, role: u.role });
    ctx.status = 201;
    ctx.body = userView(u);
  });
  router.get("/v1/admin/users", (ctx) => {
    ctx.body = { users: dir.listUsers().map(userView) };
  });
  router.delete("/v1/admin/users/:id", async (ctx) => {
    await auth.deleteUser(ctx.params.id, requestOf(ctx).principal ?? AUTH_OFF_PRINCIPAL, requestOf(ctx).id);
    ctx.status = 204;
  });
  router.post("/v1/admin/api-keys", async (ctx) => {
    const b = objectBody(await jsonBody(ctx));
    const { record, key } = await dir.createApiKey({
      name: keyName(b),
      role: role(b),
      tier: tier(b),
      tenants: tenants(b),
    });
    audit("api-key-created", { ...actor(ctx), key: record.id, name: record.name, role: record.role });
    ctx.status = 201;
    ctx.set("Cache-Control", "no-store");
    ctx.body = { ...keyView(record), key };
  });
  router.get("/v1/admin/api-keys", (ctx) => {
    ctx.body = { api_keys: dir.listApiKeys().map(keyView) };
  });
  router.delete("/v1/admin/api-keys/:id", async (ctx) => {
    const k = await dir.deleteApiKey(ctx.params.id);
    audit("api-key-deleted", { ...actor(ctx), key: k.id, name: k.name });
    ctx.status = 204;
  });
  router.post("/v1/admin/signing-keys/rotate", (ctx) => {
    const k = keys.rotate();
    audit("signing-key-rotated", { ...actor(ctx), kid: k.kid });
    ctx.body = { kid: k.kid, jwks: keys.jwks() };
  });
}
