import type Router from "@koa/router";
import type { Context } from "koa";
import type { Audit } from "../../auth/audit";
import type { AuthService } from "../../auth/auth-service";
import type { ApiKeyRecord, UserRecord } from "../../auth/credential-records";
import { keyName, objectBody, password, role, tenants, tier, username } from "../../auth/input-rules";
import { checkNewPassword, MIN_NEW_PASSWORD } from "../../auth/password-policy";
import type { SigningKeys } from "../../auth/signing-keys";
import { checkAllTenants, checkGrant, coversTenants } from "../../auth/tenant-scope";
import { notFound } from "../../errors";
import { principalOf, requestOf } from "../http/request-context";
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
 * An admin limited to some tenants (docs/auth.md "Tenants") sees and deletes only the users and keys whose
 * tenants it holds all of (any other id is 404, as an unknown one), gives only its tenants (403), and may not
 * rotate the signing keys, which every tenant's tokens use (403).
 */
export function registerAdminRoutes(
  router: Router,
  auth: AuthService,
  keys: SigningKeys,
  audit: Audit,
): void {
  const dir = auth.directory;
  const actor = (ctx: Context) => ({ principal: principalOf(ctx).id, requestId: requestOf(ctx).id });
  /** The users or keys within the caller's tenants; 404 for an id outside them, as for an unknown one. */
  const visible = <T extends { tenants: readonly string[] }>(ctx: Context, records: T[]) =>
    records.filter((r) => coversTenants(principalOf(ctx), r.tenants));
  const checkVisible = (ctx: Context, r: { tenants: readonly string[] } | undefined, what: string) => {
    if (r && !coversTenants(principalOf(ctx), r.tenants)) throw notFound(what);
  };
  router.post("/v1/admin/users", async (ctx) => {
    const b = objectBody(await jsonBody(ctx));
    const name = username(b);
    const pw = password(b, MIN_NEW_PASSWORD);
    const given = tenants(b);
    checkGrant(principalOf(ctx), given);
    await checkNewPassword(pw, name);
    const u = await dir.createUser({
      username: name,
      password: pw,
      role: role(b),
      tier: tier(b),
      tenants: given,
    });
    audit("user-created", { ...actor(ctx), user: u.id, username: u.username, role: u.role });
    ctx.status = 201;
    ctx.body = userView(u);
  });
  router.get("/v1/admin/users", (ctx) => {
    ctx.body = { users: visible(ctx, dir.listUsers()).map(userView) };
  });
  router.delete("/v1/admin/users/:id", async (ctx) => {
    checkVisible(ctx, dir.user(ctx.params.id), `No user ${ctx.params.id}`);
    await auth.deleteUser(ctx.params.id, principalOf(ctx), requestOf(ctx).id);
    ctx.status = 204;
  });
  router.post("/v1/admin/api-keys", async (ctx) => {
    const b = objectBody(await jsonBody(ctx));
    const given = tenants(b);
    checkGrant(principalOf(ctx), given);
    const { record, key } = await dir.createApiKey({
      name: keyName(b),
      role: role(b),
      tier: tier(b),
      tenants: given,
    });
    audit("api-key-created", { ...actor(ctx), key: record.id, name: record.name, role: record.role });
    ctx.status = 201;
    ctx.set("Cache-Control", "no-store");
    ctx.body = { ...keyView(record), key };
  });
  router.get("/v1/admin/api-keys", (ctx) => {
    ctx.body = { api_keys: visible(ctx, dir.listApiKeys()).map(keyView) };
  });
  router.delete("/v1/admin/api-keys/:id", async (ctx) => {
    checkVisible(ctx, dir.apiKey(ctx.params.id), `No API key ${ctx.params.id}`);
    const k = await dir.deleteApiKey(ctx.params.id);
    audit("api-key-deleted", { ...actor(ctx), key: k.id, name: k.name });
    ctx.status = 204;
  });
  router.post("/v1/admin/signing-keys/rotate", (ctx) => {
    checkAllTenants(principalOf(ctx), "Rotating the signing keys");
    const k = keys.rotate();
    audit("signing-key-rotated", { ...actor(ctx), kid: k.kid });
    ctx.body = { kid: k.kid, jwks: keys.jwks() };
  });
}
