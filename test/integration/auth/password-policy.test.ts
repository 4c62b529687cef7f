import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login } from "./auth-client";

/** New users' passwords: long enough, not the username, not a common one. */
describe("password policy of new users", function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: string;
  before(async () => {
    app = await startTestApp({ AUTH: "on", ADMIN_PASSWORD: "policy-admin-pw-1" });
    admin = (await login(app.url, "admin", "policy-admin-pw-1")).access_token;
  });
  after(() => app?.destroy());

  const create = (username: string, password: string) =>
    http(app.url, "POST", "/v1/admin/users", { username, password, role: "viewer" }, bearer(admin));

  for (const [username, password, why] of [
    ["digits", "12345678", "10 to 1024 characters"],
    ["commoner", "password1", "10 to 1024 characters"],
    ["common", "Password123", "one of the most common passwords"],
    ["keyboard", "qwertyuiop", "one of the most common passwords"],
    ["Mai.Nguyen-2024", "mai.nguyen-2024", "the username"],
  ]) {
    it(`refuses ${JSON.stringify(password)} for ${username}: ${why}`, async () => {
      const r = await create(username, password);
      expect(r.status, r.text).to.equal(400);
      const err = (r.body as { error: { message: string; details: { parameter: string } } }).error;
      expect(err.message).to.contain(why);
      expect(err.details.parameter).to.equal("password");
    });
  }

  it("accepts a long, uncommon password, and the user logs in with it", async () => {
    expect((await create("mai", "tram-xe-buyt-42")).status).to.equal(201);
    await login(app.url, "mai", "tram-xe-buyt-42");
  });
});
