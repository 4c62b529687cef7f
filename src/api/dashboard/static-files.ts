import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/** Content types of the files a dashboard build holds. */
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};

/** Kinds of file worth compressing (images are compressed already). */
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".json", ".svg", ".txt"]);

/** One file of the build, held in memory with its gzip form and a strong ETag. */
export interface StaticFile {
  body: Buffer;
  gzip?: Buffer;
  contentType: string;
  etag: string;
}

/** A file of the build from its bytes and name. */
export function staticFile(name: string, body: Buffer): StaticFile {
  const ext = path.extname(name).toLowerCase();
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
  const gzip = COMPRESSIBLE.has(ext) && body.length > 512 ? zlib.gzipSync(body, { level: 9 }) : undefined;
  return { body, gzip, etag, contentType: CONTENT_TYPES[ext] ?? "application/octet-stream" };
}

/**
 * The files of one folder (not its subfolders), read once into memory: a dashboard build is a few
 * hundred kilobytes, and serving from memory needs no path handling at request time (no traversal).
 */
export function loadStaticFolder(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!fs.existsSync(dir)) return files;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files.set(entry.name, staticFile(entry.name, fs.readFileSync(path.join(dir, entry.name))));
  }
  return files;
}
