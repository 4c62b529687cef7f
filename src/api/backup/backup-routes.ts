import { Readable, pipeline } from "node:stream";
import { createGzip } from "node:zlib";
import type Router from "@koa/router";
import { checkAllTenants } from "../../auth/tenant-scope";
import { AppError } from "../../errors";
import { principalOf, requestOf } from "../http/request-context";
import { admitTenant } from "../http/tenant";

/** The formats of a graph export. */
export const EXPORT_FORMATS = ["nquads", "trig"] as const;
export type GraphExportFormat = (typeof EXPORT_FORMATS)[number];

/** A graph export under way: its text, and what to call once it is sent or given up. */
export interface GraphExport {
  chunks: AsyncIterable<string>;
  done(ok: boolean): void;
}

/** What the routes need from the composition root. */
export interface BackupRouteDeps {
  /** The backup archive of DATA_DIR, as a stream of chunks (a consistent cut taken when it starts). */
  backup(): AsyncIterable<Buffer>;
  /**
   * A tenant's graph as text chunks; rejects with ResourceNotFound for a tenant that holds nothing. Taken
   * when it is called, before the first chunk.
   */
  exportGraph(tenant: string, format: GraphExportFormat, history: boolean): Promise<GraphExport>;
  /** Logs a stream that failed after its answer began. */
  failed(what: string, e: Error): void;
}

/** `20261127T213600Z`: a time for file names. */
const stamp = () => new Date().toISOString().replace(/[-:]|\.\d+/g, "");

/** The first chunk of `source` (the backup's cut happens before it), then the rest, as one stream. */
async function startedStream(source: AsyncIterable<Buffer>): Promise<Readable> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  async function* rest(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield first.value;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  const stream = Readable.from(rest());
  // a client that goes away stops the copy, and the held files are let go (the generator's finally)
  stream.on("close", () => void it.return?.());
  return stream;
}

function queryText(v: unknown, name: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string")
    throw new AppError("BadRequestData", `${name} must be given once`, { parameter: name });
  return v;
}

/**
 * Backup and export for operators (docs/operations.md "Backup and restore", "Export and import"); the
 * auth gate lets only admins reach `/v1/admin`, and the tenant rule holds (docs/auth.md "Tenants").
 * - `POST /v1/admin/backups` -> 200, the backup archive of the whole DATA_DIR as an
 *   `application/octet-stream` attachment, streamed while writes go on; 403 for an admin limited to
 *   some tenants, since the archive holds every tenant, its users and signing keys.
 * - `GET /v1/admin/export?tenant=&format=nquads|trig&history=false|true` -> 200, the tenant's graph
 *   (default tenant when `tenant` is absent), gzip-compressed, streamed; 403 for a tenant outside the
 *   caller's list.
 * Both carry secrets or a tenant's whole data: `Cache-Control: no-store`, so no cache keeps a copy.
 */
export function registerBackupRoutes(router: Router, deps: BackupRouteDeps): void {
  router.post("/v1/admin/backups", async (ctx) => {
    checkAllTenants(principalOf(ctx), "A backup");
    const body = await startedStream(deps.backup());
    body.on("error", (e) => deps.failed("backup", e));
    ctx.status = 200;
    ctx.set("Content-Type", "application/octet-stream");
    ctx.set("Cache-Control", "no-store");
    ctx.set("Content-Disposition", `attachment; filename="citygraph-backup-${stamp()}.tar"`);
    ctx.body = body;
  });
  router.get("/v1/admin/export", async (ctx) => {
    const tenant = queryText(ctx.query.tenant, "tenant") ?? "";
    // the tenant is named by a parameter here, not by NGSILD-Tenant: the same rule holds for it
    admitTenant(principalOf(ctx), requestOf(ctx).face, tenant);
    const format = queryText(ctx.query.format, "format") ?? "nquads";
    if (!(EXPORT_FORMATS as readonly string[]).includes(format))
      throw new AppError("BadRequestData", `format must be one of ${EXPORT_FORMATS.join(", ")}`, {
        parameter: "format",
        value: format,
      });
    const history = queryText(ctx.query.history, "history") ?? "false";
    if (history !== "true" && history !== "false")
      throw new AppError("BadRequestData", "history must be true or false", {
        parameter: "history",
        value: history,
      });
    const graph = await deps.exportGraph(tenant, format as GraphExportFormat, history === "true");
    const gz = createGzip();
    pipeline(Readable.from(graph.chunks), gz, (e) => {
      graph.done(!e);
      if (e) deps.failed("export", e);
    });
    const ext = format === "nquads" ? "nq" : "trig";
    ctx.status = 200;
    ctx.set("Content-Type", "application/gzip");
    ctx.set("Cache-Control", "no-store");
    ctx.set(
      "Content-Disposition",
      `attachment; filename="citygraph-${tenant === "" ? "default" : "tenant"}-${stamp()}.${ext}.gz"`,
    );
    ctx.body = gz;
  });
}
