import type Router from "@koa/router";
import type { AuthService } from "../../auth/auth-service";
import { objectBody, password, stringField, username } from "../../auth/input-rules";
import { requestOf } from "../http/request-context";
import { jsonBody } from "./json-body";

/**
 * Login, refresh and logout of one REST variant (docs/auth.md
 * "Logging in"): `POST {base}/auth/login` `{username, password}` -> `{access_token,
 * refresh_token, expires_in, token_type}` (variant B without `refresh_token`); `POST {base}/auth/refresh`
 * `{refresh_token}` -> a new pair, the old token stops working; `POST {base}/auth/logout` revokes the
 * login (by `{refresh_token}`, or by the caller's bearer token) -> 204. `onLogin` hears each login's
 * outcome (a metric; a malformed body is not a login attempt).
 */
export function registerTokenRoutes(
  router: Router,
  base: "/v1" | "/api/v1",
  auth: AuthService,
  onLogin: (ok: boolean) => void = () => undefined,
): void {
  const withRefresh = base === "/v1";
  router.post(`${base}/auth/login`, async (ctx) => {
    const body = objectBody(await jsonBody(ctx));
    const [name, secret] = [username(body), password(body)];
    const pair = await auth.login(name, secret, ctx.ip, requestOf(ctx).id).catch((e: unknown) => {
      onLogin(false);
      throw e;
    });
    onLogin(true);
    ctx.set("Cache-Control", "no-store");
    ctx.body = withRefresh
      ? pair
      : { access_token: pair.access_token, expires_in: pair.expires_in, token_type: pair.token_type };
  });
  router.post(`${base}/auth/refresh`, async (ctx) => {
    const body = objectBody(await jsonBody(ctx));
    const pair = await auth.refresh(stringField(body, "refresh_token"), requestOf(ctx).id);
    ctx.set("Cache-Control", "no-store");
    ctx.body = pair;
  });
  router.post(`${base}/auth/logout`, async (ctx) => {
    const hasBody = Number(ctx.get("Content-Length") || 0) > 0 || ctx.get("Transfer-Encoding") !== "";
    const body = hasBody ? objectBody(await jsonBody(ctx)) : {};
    const token = body.refresh_token === undefined ? undefined : stringField(body, "refresh_token");
    await auth.logout(token, requestOf(ctx).principal, requestOf(ctx).id);
    ctx.status = 204;
  });
}
