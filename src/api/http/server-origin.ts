import type { Context } from "koa";

/**
 * This server's origin as the client reached it: scheme and Host header. Koa's `ctx.origin` is not used:
 * in this Koa it reads the request's Origin header, which a browser sets to the page's origin and other
 * clients leave out, giving "null".
 */
export const serverOrigin = (ctx: Context): string => `${ctx.protocol}://${ctx.host}`;
