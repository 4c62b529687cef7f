import type { Context, Middleware } from "koa";

interface OriginState {
  publicOrigin?: string;
}

/**
 * This server's origin for the links a face writes (a created @context's address, a report's media):
 * `PUBLIC_URL` when it is configured, else the scheme and Host header the client reached the service
 * with. Koa's `ctx.origin` is not used: in this Koa it reads the request's Origin header, which a
 * browser sets to the page's origin and other clients leave out, giving "null".
 */
export const serverOrigin = (ctx: Context): string =>
  (ctx.state as OriginState).publicOrigin ?? `${ctx.protocol}://${ctx.host}`;

/** Makes {@link serverOrigin} answer `publicUrl` (config `PUBLIC_URL`) whatever Host a request names. */
export function withPublicOrigin(publicUrl: string): Middleware {
  return async (ctx, next) => {
    (ctx.state as OriginState).publicOrigin = publicUrl;
    await next();
  };
}
