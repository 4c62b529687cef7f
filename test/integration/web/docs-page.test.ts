import { expect } from "chai";
import { chromium, type Browser } from "playwright-core";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

describe("the API reference at /docs, in a real browser (Chromium)", function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    app = await startTestApp();
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  });
  after(async () => {
    await browser?.close();
    await app?.destroy();
  });

  it("serves Swagger UI from the service itself (no CDN) and refuses other files", async () => {
    const page = await http(app.url, "GET", "/docs");
    expect(page.status).to.equal(200);
    expect(page.headers.get("content-type")).to.contain("text/html");
    expect(page.text).to.not.match(/https?:\/\//);
    const js = await fetch(`${app.url}/docs/swagger-ui-bundle.js`);
    expect(js.status).to.equal(200);
    expect(js.headers.get("content-type")).to.contain("javascript");
    expect((await fetch(`${app.url}/docs/package.json`)).status).to.equal(404);
    expect((await fetch(`${app.url}/docs/..%2Fpackage.json`)).status).to.equal(404);
  });

  it("renders both variants' documents, with no request leaving the service", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const outside: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(app.url)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${app.url}/docs`);
    await page.waitForSelector(".info .title", { timeout: 30_000 });
    expect(await page.textContent(".info .title")).to.contain("variant B");
    await page.waitForSelector(".opblock-summary-path");
    const bPaths = await page.$$eval(".opblock-summary-path", (els) => els.map((e) => e.textContent ?? ""));
    expect(bPaths.join(" ")).to.contain("/cameras/{camera_id}/image").and.contain("/traffic/flow");
    // the document selector of the top bar switches to variant A
    await page.selectOption(".topbar select", { label: "Variant A (/v1)" });
    // a locator, not a string predicate: the page's Content-Security-Policy forbids eval
    await page.locator(".info .title", { hasText: "variant A" }).waitFor({ timeout: 30_000 });
    const aPaths = await page.$$eval(".opblock-summary-path", (els) => els.map((e) => e.textContent ?? ""));
    expect(aPaths.join(" ")).to.contain("/cameras/{camera_id}/latest-image");
    expect(outside).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    await ctx.close();
  });
});

describe("the API reference and variant B with authentication on", function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "b20-secret-1",
      RATE_LIMIT_PREFIX: `t-${process.pid}-restb`,
    });
  });
  after(async () => app?.destroy());

  it("keeps /docs and both OpenAPI documents open, and serves B to a token from B's login", async () => {
    for (const p of ["/docs", "/docs/swagger-ui.css", "/api/v1/openapi.json", "/v1/openapi.json"]) {
      expect((await http(app.url, "GET", p)).status, p).to.equal(200);
    }
    const anon = await http(app.url, "GET", "/api/v1/cameras");
    expect(anon.status).to.equal(401);
    expect((anon.body as { error: { code: string } }).error.code).to.equal("UNAUTHORIZED");
    const login = await http(app.url, "POST", "/api/v1/auth/login", {
      username: "admin",
      password: "b20-secret-1",
    });
    expect(login.status, login.text).to.equal(200);
    const token = (login.body as { access_token: string }).access_token;
    const r = await http(app.url, "GET", "/api/v1/cameras?cursor=&limit=2", undefined, {
      Authorization: `Bearer ${token}`,
    });
    expect(r.status, r.text).to.equal(200);
    expect((r.body as { data: unknown[] }).data).to.deep.equal([]);
  });
});
