import { expect } from "chai";
import { http } from "../helpers/test-app";

/** A bearer header. */
export const bearer = (t: string): Record<string, string> => ({ Authorization: `Bearer ${t}` });

/** Logs in on variant A and returns the pair. */
export async function login(
  base: string,
  username: string,
  password: string,
): Promise<{ access_token: string; refresh_token: string }> {
  const r = await http(base, "POST", "/v1/auth/login", { username, password });
  expect(r.status, r.text).to.equal(200);
  return r.body as { access_token: string; refresh_token: string };
}

/** Makes a user as `admin` and logs it in; returns its access token. */
export async function userToken(
  base: string,
  adminToken: string,
  user: { username: string; role: string; tier?: string; tenants?: string[] },
): Promise<string> {
  const password = `pw-${user.username}-123`;
  const r = await http(base, "POST", "/v1/admin/users", { ...user, password }, bearer(adminToken));
  expect(r.status, r.text).to.equal(201);
  return (await login(base, user.username, password)).access_token;
}

/** A small NGSI-LD entity. */
export const entity = (id: string) => ({
  id,
  type: "Thing",
  name: { type: "Property", value: "x" },
  "@context": "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld",
});
