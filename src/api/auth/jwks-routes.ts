import type Router from "@koa/router";
import type { SigningKeys } from "../../auth/signing-keys";

/** `GET /.well-known/jwks.json`: the public keys that verify access tokens (RFC 7517), open to anyone. */
export function registerJwksRoutes(router: Router, keys: SigningKeys): void {
  router.get("/.well-known/jwks.json", (ctx) => {
    ctx.set("Cache-Control", "public, max-age=300");
    ctx.type = "application/jwk-set+json";
    ctx.body = JSON.stringify(keys.jwks());
  });
}
