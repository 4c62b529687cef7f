import path from "node:path";
import type { GraphExport, GraphExportFormat } from "../../api/backup/backup-routes";
import { AppError } from "../../errors";
import type { Logger } from "../../log/logger";
import { exportSnapshot } from "../../store/backup/graph-export";
import type { GraphStore } from "../../store/graph-store";

/**
 * A tenant's graph for an export (docs/operations.md "Export and import"): the store compacts and keeps the
 * snapshot while the tenant's N-Quads are read from it, so the export is one consistent cut; the progress
 * goes to the log. Rejects with ResourceNotFound when the tenant holds no graph.
 */
export async function exportGraph(
  store: GraphStore,
  log: Logger,
  tenant: string,
  format: GraphExportFormat,
  history: boolean,
): Promise<GraphExport> {
  const held = await store.holdSnapshot();
  const entry = held.tenants.find((t) => t.tenant === tenant);
  if (!entry) {
    await held.release();
    throw new AppError("ResourceNotFound", `The tenant ${JSON.stringify(tenant)} holds no graph`, { tenant });
  }
  const t0 = Date.now();
  return {
    chunks: exportSnapshot(path.join(held.dir, entry.file), {
      format,
      history,
      progress: (quads, graphs) => log.info("export progress", { tenant, format, quads, graphs }),
    }),
    done: (ok) => {
      void held.release();
      if (ok) log.info("export done", { tenant, format, seq: held.seq, ms: Date.now() - t0 });
    },
  };
}
