import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Debian's Chromium (`.ci/run` installs it when missing). */
export const CHROMIUM = "/usr/bin/chromium";

/** Flags for a headless Chromium that talks to nothing but the service under test. */
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A headless Chromium with a fresh profile, and every console error and page error of its pages. */
export interface TestBrowser {
  context: BrowserContext;
  /** Console messages of type error and uncaught page errors, in order, with the page's URL. */
  errors: string[];
  newPage(viewport: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Launches Chromium with a new `--user-data-dir` (deleted on close); fails clearly when it is missing. */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1366, height: 768 },
    acceptDownloads: true,
  });
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (m) => {
      if (m.type() === "error")
        errors.push(`console error on ${page.url()}: ${m.text()} ${JSON.stringify(m.location())}`);
    });
    page.on("pageerror", (e) => errors.push(`page error on ${page.url()}: ${e.stack ?? e.message}`));
  };
  context.on("page", watch);
  for (const p of context.pages()) watch(p);
  return {
    context,
    errors,
    newPage: async (viewport) => {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      return page;
    },
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Where the browser tests write their screenshots (git-ignored). */
export const SCREENSHOT_DIR = path.resolve(__dirname, "../../../../test-results/dashboard");

/**
 * Waits until `expression` is truthy in the page, polling with page.evaluate: Playwright's waitForFunction
 * compiles its predicate with `new Function`, which the service's Content-Security-Policy forbids.
 */
export async function waitForTrue(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
