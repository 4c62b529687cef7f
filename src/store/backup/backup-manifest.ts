/**
 * What a backup archive holds besides the files of DATA_DIR (docs/operations.md "Backup and restore"): a
 * manifest listing every file with its size and SHA-256, then a checksum of every byte before it.
 */
export const MANIFEST_ENTRY = "backup-manifest.json";
export const CHECKSUM_ENTRY = "backup-checksum.sha256";
export const BACKUP_FORMAT = "citygraph-backup";

/** One file of DATA_DIR in the archive. */
export interface BackupFile {
  /** Path relative to DATA_DIR, with "/" separators. */
  path: string;
  bytes: number;
  sha256: string;
}

/** The manifest entry. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  /** Journal seq of the store's snapshot: every write acknowledged before the backup began is in it. */
  storeSeq: number;
  files: BackupFile[];
}

/** True if `p` may be written under the data folder: relative, normalized, no "..", not a reserved name. */
export function isSafeBackupPath(p: string): boolean {
  if (!p || p.startsWith("/") || p.includes("\\") || p.includes("\0")) return false;
  const parts = p.split("/");
  return (
    parts.every((s) => s !== "" && s !== "." && s !== "..") && p !== MANIFEST_ENTRY && p !== CHECKSUM_ENTRY
  );
}
