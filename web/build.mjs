// Builds the dashboard into dist/web: web/src/main.ts (TypeScript, Leaflet, YASGUI and the CSS they
// import) bundled and minified by esbuild into content-hashed ES modules under dist/web/assets, the
// SPARQL console in a chunk of its own loaded on first use, and index.html naming the entry. The service serves that folder at / (src/api/dashboard).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist", "web");

fs.rmSync(out, { recursive: true, force: true });
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { main: "web/src/main.ts" },
  bundle: true,
  minify: true,
  format: "esm",
  splitting: true,
  target: ["chrome109", "firefox115", "safari15"],
  outdir: path.join(out, "assets"),
  entryNames: "[name]-[hash]",
  chunkNames: "[name]-[hash]",
  assetNames: "[name]-[hash]",
  loader: { ".png": "file", ".svg": "file" },
  legalComments: "eof",
  metafile: true,
  logLevel: "warning",
});

const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === "web/src/main.ts");
if (!entry || !entry[1].cssBundle) throw new Error("web build: no JS or CSS bundle for web/src/main.ts");
const asset = (file) => "/assets/" + path.basename(file);
const html = fs
  .readFileSync(path.join(root, "web", "index.html"), "utf8")
  .replace("__MAIN_JS__", asset(entry[0]))
  .replace("__MAIN_CSS__", asset(entry[1].cssBundle));
fs.writeFileSync(path.join(out, "index.html"), html);

let gzipped = zlib.gzipSync(html).length;
for (const f of fs.readdirSync(path.join(out, "assets"))) {
  gzipped += zlib.gzipSync(fs.readFileSync(path.join(out, "assets", f))).length;
}
console.log(`web: dist/web built, ${(gzipped / 1024).toFixed(0)} KiB gzipped`);
