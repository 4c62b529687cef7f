import path from "node:path";
import { faceRouter } from "./face-router";
import { registerBackupRoutes } from "../../api/backup/backup-routes";
import { renderRestError } from "../../api/rest/rest-error";
import type { Config } from "../../config/config";
import type { Logger } from "../../log/logger";
import { backupArchive, type BackupIndexImage } from "../backup/data-dir-backup";
import { exportGraph } from "../backup/graph-export";
import type { Storage } from "../storage";
import type { Face } from "./face";

/**
 * Backup (`POST /v1/admin/backups`) and graph export (`GET /v1/admin/export`), errors in the REST format.
 * `beforeCut` writes the state a backup must hold that lives in memory between writes; `image` writes the
 * image of the derived indexes the restored service starts from.
 */
export function backupFace(
  config: Config,
  log: Logger,
  storage: Storage,
  beforeCut: () => Promise<void>,
  image: BackupIndexImage,
): Face {
  const router = faceRouter();
  registerBackupRoutes(router, {
    backup: () => backupArchive(storage, config.store.dataDir, log, beforeCut, image),
    exportGraph: (tenant, format, history) =>
      exportGraph(path.join(config.store.dataDir, "store"), log, tenant, format, history),
    failed: (what, e) => log.error(`${what} stream failed`, { error: e.message }),
  });
  return {
    mount: {
      name: "auth", // the admin routes of /v1/admin: same renderer, same place in request counts
      prefixes: ["/v1/admin/backups", "/v1/admin/export"],
      renderError: renderRestError,
    },
    routers: [router],
  };
}
