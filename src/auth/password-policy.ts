import { badRequest } from "../errors";

/** Shortest password a new user may get (NIST SP 800-63B asks at least 8; 10 leaves guessing slower). */
export const MIN_NEW_PASSWORD = 10;

let common: Promise<ReadonlySet<string>> | undefined;

/**
 * The 49,233 most common passwords of the zxcvbn-ts common dictionary (npm `@zxcvbn-ts/language-common`,
 * MIT), lower case, loaded on first use: they ship in the package, no network is asked.
 */
function commonPasswords(): Promise<ReadonlySet<string>> {
  return (common ??= import("@zxcvbn-ts/language-common").then(
    (m) => new Set(m.dictionary["passwords-common"].map((p) => String(p).toLowerCase())),
  ));
}

/**
 * Throws 400 (parameter `password`) when a new password is shorter than {@link MIN_NEW_PASSWORD}, is the
 * username, or is one of the common passwords (case ignored): the ones a guesser tries first.
 */
export async function checkNewPassword(password: string, username: string): Promise<void> {
  const refuse = (why: string) => badRequest(`password is refused: ${why}`, { parameter: "password" });
  if (password.length < MIN_NEW_PASSWORD)
    throw refuse(`it must have at least ${MIN_NEW_PASSWORD} characters`);
  const lower = password.toLowerCase();
  if (lower === username.toLowerCase()) throw refuse("it is the username");
  if ((await commonPasswords()).has(lower)) throw refuse("it is one of the most common passwords");
}
