import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Logger } from "../log/logger";
import { writePrivateFile } from "./private-file";
import type { UserDirectory } from "./user-directory";

/** Where the initial admin password goes when `ADMIN_PASSWORD` is not set. */
export const initialPasswordFile = (dataDir: string): string => path.join(dataDir, "initial-admin-password");

/**
 * First start (docs/auth.md "Logging in"): with no user at all, makes user `admin` (role
 * admin, tier enterprise) with `ADMIN_PASSWORD`, or with a random password written to
 * `DATA_DIR/initial-admin-password` (mode 0600); the log says which. No fixed default password exists.
 */
export async function bootstrapAdmin(
  directory: UserDirectory,
  dataDir: string,
  adminPassword: string | undefined,
  log: Logger,
): Promise<void> {
  if (directory.userCount > 0) return;
  const password = adminPassword ?? randomBytes(18).toString("base64url");
  if (!adminPassword) writePrivateFile(initialPasswordFile(dataDir), `${password}\n`);
  const u = await directory.createUser({
    username: "admin",
    password,
    role: "admin",
    tier: "enterprise",
    tenants: [],
  });
  log.info("admin user created", {
    user: u.id,
    password: adminPassword
      ? "from ADMIN_PASSWORD"
      : `written to ${initialPasswordFile(dataDir)} (mode 0600)`,
  });
}
