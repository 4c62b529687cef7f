import fs from "node:fs";
import path from "node:path";

/**
 * Where each tenant's RocksDB stores live (docs/decisions/0019-native-store.md): `<dataDir>/store/native/
 * <tenant key>/public` holds what SPARQL sees (entity graphs, the plain view in the default graph, history
 * segments, instance graphs); `.../internal` the broker's own state (subscriptions, users, registrations),
 * which no SPARQL query can reach. One store pair per tenant: no query of one tenant can see another's.
 */
export const NATIVE_DIR = "native";

/** The folder name of a tenant: `default` for the default tenant, else `t-` and the name's UTF-8 in hex. */
export function tenantKey(tenant: string): string {
  return tenant === "" ? "default" : `t-${Buffer.from(tenant, "utf8").toString("hex")}`;
}

/** The tenant of a folder name, or undefined for a name that is not one. */
export function tenantOfKey(key: string): string | undefined {
  if (key === "default") return "";
  const m = /^t-((?:[0-9a-f]{2})+)$/.exec(key);
  return m ? Buffer.from(m[1], "hex").toString("utf8") : undefined;
}

/** The two store folders of `tenant` under the store folder `storeDir` (`<dataDir>/store`). */
export function tenantFolders(storeDir: string, tenant: string): { public: string; internal: string } {
  const base = path.join(storeDir, NATIVE_DIR, tenantKey(tenant));
  return { public: path.join(base, "public"), internal: path.join(base, "internal") };
}

/** The tenants that have folders under `storeDir`. */
export function listTenantFolders(storeDir: string): string[] {
  const root = path.join(storeDir, NATIVE_DIR);
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .map(tenantOfKey)
    .filter((t): t is string => t !== undefined);
}
