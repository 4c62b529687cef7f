import fs from "node:fs";
import path from "node:path";
import type Router from "@koa/router";
import type { Context } from "koa";
import { contentSecurityPolicy, tileOrigins } from "../http/security-headers";
import { loadStaticFolder, staticFile, type StaticFile } from "./static-files";

/** What the page learns from the service at load time (injected into index.html). */
export interface DashboardClientConfig {
  /** Leaflet tile URL template (`MAP_TILES_URL`); unset = plain background, no network. */
  tilesUrl?: string;
  /** Attribution shown for the tiles (`MAP_TILES_ATTRIBUTION`). */
  tilesAttribution?: string;
  /** Whether the faces ask for a token: the page shows its login view first when they do. */
  authRequired: boolean;
  /** Prefix -> namespace IRI, offered first by the SPARQL console's prefix completion. */
  sparqlPrefixes: Readonly<Record<string, string>>;
}

/** Options of the dashboard routes. */
export interface DashboardOptions extends DashboardClientConfig {
  /** Folder of the build (index.html + assets/); default dist/web of the project. */
  dir?: string;
}

/** Hashed asset names (`main-3FJ2K7QX.js`) never change content: cache them for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** The page itself is checked every time, so a new build is picked up at once. */
const REVALIDATE = "no-cache";

/** The built dashboard of this checkout: dist/web beside dist/src (this file runs from dist/src/api/dashboard). */
export function defaultDashboardDir(): string {
  return path.resolve(__dirname, "../../../web");
}

/**
 * The operations dashboard (web/, built by `npm run build`): `GET /` and `GET /dashboard` answer the page
 * with the client configuration in a `<meta>` element; `GET /assets/<file>` answers the bundles. Files
 * are read once at start, sent gzipped when the client accepts it, with ETag and cache headers. The page
 * talks to the service's public faces only, with the user's token.
 */
export function registerDashboardRoutes(router: Router, options: DashboardOptions): void {
  const dir = options.dir ?? defaultDashboardDir();
  const assets = loadStaticFolder(path.join(dir, "assets"));
  const indexPath = path.join(dir, "index.html");
  const page = fs.existsSync(indexPath)
    ? staticFile("index.html", Buffer.from(injectConfig(fs.readFileSync(indexPath, "utf8"), options)))
    : undefined;

  // the SPARQL console (YASGUI) writes style attributes in the markup it builds, which 'style-src self'
  // refuses (three refusals on running one query): inline styles stay; scripts stay the service's files only
  const pagePolicy = contentSecurityPolicy({
    inlineStyles: true,
    imageOrigins: tileOrigins(options.tilesUrl),
  });
  const sendPage = (ctx: Context) => {
    ctx.set("Content-Security-Policy", pagePolicy);
    if (!page) {
      ctx.status = 503;
      ctx.type = "text/plain";
      ctx.body = "The dashboard is not built: run `npm run build`.\n";
      return;
    }
    send(ctx, page, REVALIDATE);
  };
  router.get("/", sendPage);
  router.get("/dashboard", sendPage);
  router.get("/assets/:file", (ctx) => {
    const file = assets.get(ctx.params.file);
    if (!file) {
      ctx.status = 404;
      ctx.type = "text/plain";
      ctx.body = "No such asset\n";
      return;
    }
    send(ctx, file, IMMUTABLE);
  });
}

/** Puts the client configuration into the page's `<meta name="citygraph-config">`. */
export function injectConfig(html: string, options: DashboardClientConfig): string {
  const json = JSON.stringify({
    tilesUrl: options.tilesUrl,
    tilesAttribution: options.tilesAttribution,
    authRequired: options.authRequired,
    sparqlPrefixes: options.sparqlPrefixes,
  });
  const attr = json.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return html.replace("__CITYGRAPH_CONFIG__", attr);
}

function send(ctx: Context, file: StaticFile, cacheControl: string): void {
  ctx.set("Cache-Control", cacheControl);
  ctx.set("ETag", file.etag);
  ctx.vary("Accept-Encoding");
  ctx.type = file.contentType;
  if (ctx.get("If-None-Match") === file.etag) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  if (file.gzip && /\bgzip\b/.test(ctx.get("Accept-Encoding"))) {
    ctx.set("Content-Encoding", "gzip");
    ctx.body = file.gzip;
  } else {
    ctx.body = file.body;
  }
}
