import { expect } from "chai";
import { chromium, type Browser } from "playwright-core";
import { http, startTestApp, type TestApp } from "./helpers/test-app";

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
    await page.waitForFunction(
      'document.querySelector(".info .title")?.textContent?.includes("variant A")',
      undefined,
      { timeout: 30_000 },
    );
    const aPaths = await page.$$eval(".opblock-summary-path", (els) => els.map((e) => e.textContent ?? ""));
    expect(aPaths.join(" ")).to.contain("/cameras/{camera_id}/latest-image");
    expect(outside).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    await ctx.close();
  });
});
