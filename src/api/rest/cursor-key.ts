import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** File under DATA_DIR that holds the key cursors are signed with. */
export const CURSOR_KEY_FILE = "keys/rest-cursor.key";

/**
 * The HMAC key of the REST cursor form: 32 random bytes made on the first start and kept in
 * `DATA_DIR/keys/rest-cursor.key` (mode 0600), so that cursors stay valid across restarts and a
 * client cannot forge one. Two processes starting at once agree: the file is created exclusively and
 * the loser reads the winner's key.
 */
export function loadCursorKey(dataDir: string): Buffer {
  const file = path.join(dataDir, CURSOR_KEY_FILE);
  const existing = readKey(file);
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = crypto.randomBytes(32);
  try {
    fs.writeFileSync(file, key.toString("base64") + "\n", { flag: "wx", mode: 0o600 });
    return key;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    const raced = readKey(file);
    if (!raced) throw new Error(`cursor key file ${file} is empty or damaged`);
    return raced;
  }
}

function readKey(file: string): Buffer | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  const key = Buffer.from(text.trim(), "base64");
  if (key.length < 32) throw new Error(`cursor key file ${file} is damaged (delete it to make a new key)`);
  return key;
}
