import { expect } from "chai";
import { launchBrowser, type TestBrowser } from "../helpers/browser";
import { startTestApp, type TestApp } from "../helpers/test-app";

describe("dashboard: loading history while the service is not ready", function () {
  this.timeout(180_000);
  let browser: TestBrowser;
  let app: TestApp;
  before(async () => {
    browser = await launchBrowser();
    // 3 hours of backfill: 12 ticks of the feed, long enough to see the page before it is done
    app = await startTestApp({ FEED: "on", FEED_BACKFILL: "3h" });
  });
  after(async () => {
    await browser?.close();
    await app?.destroy();
  });

  it('says "loading history…" until /health/ready is 200, then nothing', async () => {
    const page = await browser.newPage({ width: 1280, height: 800 });
    await page.goto(app.url);
    const banner = page.locator("p.readiness");
    await banner.waitFor({ state: "visible", timeout: 20_000 });
    expect(await banner.textContent()).to.equal("loading history…");
    expect(await banner.getAttribute("title")).to.include("feed backfill");
    await banner.waitFor({ state: "hidden", timeout: 150_000 });
    const ready = await page.evaluate(`fetch("/health/ready").then((r) => r.status)`);
    expect(ready).to.equal(200);
  });
});
