import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";

/**
 * The Authorization header of the command-line tools: `CITYGRAPH_TOKEN` (an admin's access token or API
 * key) as it is, or a login as `ADMIN_USERNAME` (default admin) with `ADMIN_PASSWORD`; none when neither is
 * set (a service with AUTH=off).
 */
export async function adminAuthorization(baseUrl: string): Promise<Record<string, string>> {
  const token = process.env.CITYGRAPH_TOKEN;
  if (token) return { Authorization: `Bearer ${token}` };
  const password = process.env.ADMIN_PASSWORD;
  if (!password) return {};
  const res = await fetch(new URL("/v1/auth/login", baseUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: process.env.ADMIN_USERNAME ?? "admin", password }),
  });
  if (!res.ok) throw new Error(`login as admin failed: HTTP ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error("login as admin gave no access token");
  return { Authorization: `Bearer ${body.access_token}` };
}

/** Sends the request and streams a 200 answer's body into `file`; any other answer is an error with its body. */
export async function download(url: URL, init: RequestInit, file: string): Promise<number> {
  const res = await fetch(url, init);
  if (res.status !== 200 || !res.body)
    throw new Error(
      `${init.method ?? "GET"} ${url.pathname} answered HTTP ${res.status}: ${await res.text()}`,
    );
  await pipeline(
    Readable.fromWeb(res.body as ReadableStream<Uint8Array>),
    fs.createWriteStream(file, { mode: 0o600 }),
  );
  return fs.statSync(file).size;
}

/** Runs a command-line tool: its error as one line on stderr and exit code 1. */
export function runTool(main: () => Promise<void>): void {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  });
}
