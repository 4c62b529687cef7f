import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { defaultDashboardDir } from "../../../src/api/dashboard/dashboard-routes";
import { TRAFFIC_CONTEXT_URL } from "../../../src/domain/vocabulary";
import { launchBrowser, type TestBrowser } from "../helpers/browser";
import { http, linkTo, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login } from "../auth/auth-client";

const ADMIN = { username: "admin", password: "dashboard-admin-pw-1" };
const DISTRICT = "urn:ngsi-ld:District:quan-1";
const PAYLOAD = `<img src=x onerror="window.__pwned=1">Quận 1`;

/** Hovers the district's polygon (a mouseover at its centre, as Leaflet listens for) and answers its tooltip's text. */
async function districtTooltip(page: Page, zoneId: string): Promise<{ text: string; images: number }> {
  await page.evaluate(`(() => {
    const el = document.querySelector('path[data-zone-id="${zoneId}"]');
    const r = el.getBoundingClientRect();
    const at = { bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
    el.dispatchEvent(new MouseEvent("mouseover", at));
    el.dispatchEvent(new MouseEvent("mousemove", at));
  })()`);
  const tip = page.locator(".leaflet-tooltip");
  await tip.waitFor();
  return { text: (await tip.textContent()) ?? "", images: await tip.locator("img").count() };
}

describe("dashboard and /docs under the Content-Security-Policy, in Chromium", function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: TestBrowser;

  before(async () => {
    if (!fs.existsSync(path.join(defaultDashboardDir(), "index.html"))) {
      throw new Error("dist/web is not built: run npm run build");
    }
    app = await startTestApp({ SEED: "on", AUTH: "on", ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.destroy();
  });

  it("shows a district name holding markup as text in the map's tooltip; its script never runs", async () => {
    const admin = (await login(app.url, ADMIN.username, ADMIN.password)).access_token;
    const patch = await http(
      app.url,
      "PATCH",
      `/ngsi-ld/v1/entities/${encodeURIComponent(DISTRICT)}/attrs`,
      { name: { type: "Property", value: PAYLOAD } },
      { ...bearer(admin), Link: linkTo(TRAFFIC_CONTEXT_URL) },
    );
    expect(patch.status, patch.text).to.equal(204);

    const page = await browser.newPage({ width: 1366, height: 768 });
    await page.goto(`${app.url}/`);
    await page.getByLabel("User name").fill(ADMIN.username);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForSelector('path[data-zone-id="quan-1"]');
    const tip = await districtTooltip(page, "quan-1");
    expect(tip.text).to.contain(`<img src=x onerror="window.__pwned=1">Quận 1`);
    expect(tip.images).to.equal(0);
    expect(await page.evaluate("window.__pwned")).to.equal(undefined);
    expect(browser.errors, "console errors (CSP violations included)").to.deep.equal([]);
    await page.close();
  });

  it("renders /docs with no CSP violation", async () => {
    const page = await browser.newPage({ width: 1366, height: 768 });
    await page.goto(`${app.url}/docs`);
    await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
    expect(await page.textContent(".info .title")).to.contain("variant B");
    expect(browser.errors, "console errors (CSP violations included)").to.deep.equal([]);
    await page.close();
  });
});
