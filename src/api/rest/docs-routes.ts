import fs from "node:fs";
import path from "node:path";
import type Router from "@koa/router";
import { notFound } from "../../errors";
import { contentSecurityPolicy } from "../http/security-headers";

/** One OpenAPI document the reference page lists. */
export interface ApiDocLink {
  name: string;
  url: string;
}

/** The swagger-ui-dist files the page loads, with their media types. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "application/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "application/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

/** Where npm installed swagger-ui-dist. */
function swaggerUiDir(): string {
  return path.dirname(require.resolve("swagger-ui-dist/package.json"));
}

/**
 * The browsable API reference at `/docs`: Swagger UI from the installed `swagger-ui-dist` package
 * (served from node_modules, no CDN: the page works offline), with a selector over `docs` (both REST
 * variants' OpenAPI documents).
 */
export function registerDocsRoutes(router: Router, docs: readonly ApiDocLink[]): void {
  const dir = swaggerUiDir();
  const page = docsPage();
  const init = initializer(docs);
  router.get("/docs", (ctx) => {
    // Swagger UI's bundle adds an inline <style>: the page allows inline styles, never inline script
    ctx.set("Content-Security-Policy", contentSecurityPolicy({ inlineStyles: true }));
    ctx.type = "text/html; charset=utf-8";
    ctx.body = page;
  });
  router.get("/docs/", (ctx) => ctx.redirect("/docs"));
  router.get("/docs/citygraph-docs.js", (ctx) => {
    ctx.type = "application/javascript; charset=utf-8";
    ctx.body = init;
  });
  router.get("/docs/citygraph-docs.css", (ctx) => {
    ctx.type = "text/css; charset=utf-8";
    ctx.body = PAGE_CSS;
  });
  router.get("/docs/:file", (ctx) => {
    const type = ASSETS[ctx.params.file];
    if (!type) throw notFound(`No such file: /docs/${ctx.params.file}`);
    ctx.type = type;
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = fs.createReadStream(path.join(dir, ctx.params.file));
  });
}

/** The page's own style, a file of its own: the Content-Security-Policy allows no inline style. */
const PAGE_CSS =
  "html { box-sizing: border-box; overflow-y: scroll; } body { margin: 0; background: #fafafa; }\n";

function docsPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>citygraph API reference</title>
    <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
    <link rel="stylesheet" type="text/css" href="/docs/citygraph-docs.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="/docs/citygraph-docs.js" charset="UTF-8"></script>
  </body>
</html>
`;
}

/** Swagger UI's start script: the documents in a selector, the first shown, deep links on. */
function initializer(docs: readonly ApiDocLink[]): string {
  return `window.onload = function () {
  window.ui = SwaggerUIBundle({
    urls: ${JSON.stringify(docs)},
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
    validatorUrl: null,
  });
};
`;
}
