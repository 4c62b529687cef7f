import fs from "node:fs";
import { parseArgs } from "node:util";
import { adminAuthorization, download, runTool } from "./download";

/**
 * `npm run export -- --url URL --out FILE [--tenant T] [--format nquads|trig] [--history]`
 * (docs/operations.md "Export and import"): a tenant's graph from a running service
 * (`GET /v1/admin/export`), gzip-compressed, into FILE. Credentials as for `npm run backup`.
 */
runTool(async () => {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      out: { type: "string" },
      tenant: { type: "string", default: "" },
      format: { type: "string", default: "nquads" },
      history: { type: "boolean", default: false },
    },
  });
  if (!values.url || !values.out)
    throw new Error(
      "usage: npm run export -- --url URL --out FILE [--tenant T] [--format nquads|trig] [--history]",
    );
  const t0 = Date.now();
  const url = new URL("/v1/admin/export", values.url);
  url.searchParams.set("tenant", values.tenant ?? "");
  url.searchParams.set("format", values.format ?? "nquads");
  url.searchParams.set("history", String(values.history));
  const partial = `${values.out}.partial`;
  try {
    const bytes = await download(url, { headers: await adminAuthorization(values.url) }, partial);
    fs.renameSync(partial, values.out);
    process.stdout.write(`export written to ${values.out}: ${bytes} bytes (gzip), ${Date.now() - t0} ms\n`);
  } finally {
    fs.rmSync(partial, { force: true });
  }
});
