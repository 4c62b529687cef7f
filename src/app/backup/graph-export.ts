import type { GraphExport, GraphExportFormat } from "../../api/backup/backup-routes";
import { AppError } from "../../errors";
import type { Logger } from "../../log/logger";
import { openTenantExport } from "../../store/backup/graph-export";

/**
 * A tenant's graph for an export (docs/operations.md "Export and import"): read from the tenant's public
 * RocksDB store over one snapshot taken at the call, so the export is one consistent cut while writes go
 * on; the progress goes to the log. Rejects with ResourceNotFound when the tenant holds no graph to export.
 * `storeDir` is `<dataDir>/store`.
 */
export async function exportGraph(
  storeDir: string,
  log: Logger,
  tenant: string,
  format: GraphExportFormat,
  history: boolean,
): Promise<GraphExport> {
  const t0 = Date.now();
  const opened = await openTenantExport(storeDir, tenant, {
    format,
    history,
    progress: (quads, graphs) => log.info("export progress", { tenant, format, quads, graphs }),
  });
  if (!opened)
    throw new AppError("ResourceNotFound", `The tenant ${JSON.stringify(tenant)} holds no graph`, { tenant });
  return {
    chunks: opened.chunks,
    done: (ok) => {
      opened.close();
      if (ok) log.info("export done", { tenant, format, ms: Date.now() - t0 });
    },
  };
}
