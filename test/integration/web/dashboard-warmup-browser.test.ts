import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { defaultDashboardDir } from "../../../src/api/dashboard/dashboard-routes";
import { launchBrowser, waitForTrue, type TestBrowser } from "../helpers/browser";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

/** What the page's "loading history…" line shows: its text, its ::before content and the spinner's size. */
const READINESS_LINE = `(() => {
  const el = document.querySelector(".readiness");
  const before = getComputedStyle(el, "::before");
  return { hidden: el.hidden, text: el.textContent, before: before.content, width: parseFloat(before.width),
    border: before.borderTopStyle };
})()`;

describe("dashboard while the service warms up, in Chromium", function () {
  this.timeout(240_000);
  let app: TestApp;
  let browser: TestBrowser;

  before(async () => {
    if (!fs.existsSync(path.join(defaultDashboardDir(), "index.html"))) {
      throw new Error("dist/web is not built: run npm run build");
    }
    // the feed's backfill holds readiness for a while after the service listens
    app = await startTestApp({ SEED: "on", FEED: "on", FEED_BACKFILL: "3h" });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.destroy();
  });

  it("says it is loading with a drawn spinner, asks for nothing that fails, and clears when ready", async () => {
    expect((await http(app.url, "GET", "/health/ready")).status, "not ready yet").to.equal(503);
    const page = await browser.newPage({ width: 1366, height: 768 });
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${app.url}/`);
    await waitForTrue(
      page,
      `document.querySelector(".readiness") && !document.querySelector(".readiness").hidden`,
    );
    const line = (await page.evaluate(READINESS_LINE)) as Record<string, unknown>;
    expect(line.text).to.equal("loading history…");
    // no glyph the page's fonts may lack: the spinner is a bordered box, not a character
    expect(line.before).to.equal('""');
    expect(line.width).to.be.greaterThan(0);
    expect(line.border).to.equal("solid");
    await waitForTrue(page, `document.querySelector(".readiness").hidden`, 200_000);
    expect(failed, "answers >= 400 while warming up").to.deep.equal([]);
    expect(browser.errors, "console errors").to.deep.equal([]);
    await page.close();
  });
});
