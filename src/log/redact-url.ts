/**
 * A URL as it may be logged: its userinfo (user name and password, as in `https://user:secret@host/`) is
 * replaced by `***`, so that a credential written into a configured address never reaches the log.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "(not a URL)";
  }
  if (u.username === "" && u.password === "") return u.href;
  u.username = "***";
  u.password = "";
  return u.href;
}
