import type { Middleware } from "koa";

/** What the pages of the service load from elsewhere: the dashboard's map tiles, when configured. */
export interface SecurityHeaderOptions {
  /** Origins images may come from besides the service (the map tiles' origin). */
  imageOrigins?: readonly string[];
  /** Allows inline styles (Swagger UI's bundle injects a `<style>`); scripts stay the service's files only. */
  inlineStyles?: boolean;
}

/**
 * The Content-Security-Policy of every answer: scripts, styles and connections from the service only
 * (no inline script, no eval), images also as data: and blob: URLs (Leaflet's icons, fetched camera
 * frames), no plugins, no framing by other sites.
 */
export function contentSecurityPolicy(options: SecurityHeaderOptions = {}): string {
  const images = ["'self'", "data:", "blob:", ...(options.imageOrigins ?? [])].join(" ");
  return [
    "default-src 'self'",
    "script-src 'self'",
    options.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    `img-src ${images}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Sets the browser security headers on every answer, errors and static files included (docs/auth.md
 * "Browser security headers"): set before the rest of the pipeline runs, so an error rendered later
 * keeps them.
 */
export function securityHeaders(options: SecurityHeaderOptions = {}): Middleware {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
  };
  return (ctx, next) => {
    ctx.set(headers);
    return next();
  };
}

/**
 * The CSP source of a tile URL template's host (`https://{s}.tile.example.org/{z}/{x}/{y}.png` ->
 * `https://*.tile.example.org`); none without a template.
 */
export function tileOrigins(template: string | undefined): string[] {
  const m = template ? /^(https?:\/\/)([^/?#]+)/i.exec(template) : null;
  if (!m) return [];
  const host = m[2].replace(/\{[^}]*\}/g, "*");
  // a placeholder inside a label (`a{s}.x`) has no CSP form: the scheme alone then
  return [/^(\*\.)?[^*]+$/.test(host) ? `${m[1]}${host}` : m[1].slice(0, -2)];
}
