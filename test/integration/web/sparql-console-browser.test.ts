import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { defaultDashboardDir } from "../../../src/api/dashboard/dashboard-routes";
import { bearer, login } from "../auth/auth-client";
import { launchBrowser, waitForTrue, type TestBrowser } from "../helpers/browser";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const ADMIN = { username: "admin", password: "console-admin-pw-1" };
const VIEWER = { username: "vera", password: "console-viewer-pw-1" };
/** A result literal holding markup: shown as text, never parsed as HTML (its onerror would run or be refused). */
const MARKUP = `<img src="/x-markup" onerror="window.__pwned=1"> & <b>bold</b>`;
const MARKUP_QUERY = `SELECT ?text WHERE { BIND(${JSON.stringify(MARKUP)} AS ?text) }`;

/** Logs in through the page's form. */
async function logIn(page: Page, user: { username: string; password: string }): Promise<void> {
  await page.getByLabel("User name").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Everything the page keeps beyond its memory: storage, cookies, its address. */
const kept = (page: Page): Promise<string> =>
  page.evaluate(`JSON.stringify({
    local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, url: location.href,
  })`);

/** The JWT claims of a request's bearer token. */
const claimsOf = (authorization: string | undefined): Record<string, unknown> =>
  JSON.parse(
    Buffer.from((authorization ?? "").split(".")[1] ?? "", "base64url").toString() || "{}",
  ) as Record<string, unknown>;

describe("SPARQL console in Chromium: share links without credentials, results as text", function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: TestBrowser;

  before(async () => {
    if (!fs.existsSync(path.join(defaultDashboardDir(), "index.html"))) {
      throw new Error("dist/web is not built: run npm run build");
    }
    app = await startTestApp({ AUTH: "on", ADMIN_PASSWORD: ADMIN.password });
    const admin = (await login(app.url, ADMIN.username, ADMIN.password)).access_token;
    const made = await http(
      app.url,
      "POST",
      "/v1/admin/users",
      { ...VIEWER, role: "viewer", tier: "enterprise" },
      bearer(admin),
    );
    expect(made.status, made.text).to.equal(201);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.destroy();
  });

  it("shares a query by a link with no token; the recipient opens it under their own login", async () => {
    const page = await browser.newPage({ width: 1366, height: 768 });
    const tokens: string[] = [];
    page.on("request", (r) => {
      const a = r.headers().authorization;
      if (a) tokens.push(a.replace(/^Bearer /, ""));
    });
    await page.goto(`${app.url}/#sparql`);
    await logIn(page, ADMIN);
    const panel = page.locator(".yasgui .tabPanel.active");
    await panel.locator(".yasqe_queryButton").click();
    await panel.locator(".yasr_response_chip", { hasText: /results?/ }).waitFor({ timeout: 30_000 });
    expect(tokens.length, "the console's requests carry the session's token").to.be.greaterThan(0);
    const token = tokens[0];

    await panel.locator(".yasqe_share").click();
    const link = await panel.locator(".yasqe_sharePopup input").inputValue();
    expect(link).to.match(new RegExp(`^${app.url}/#sparql\\?query=`));
    expect(link).not.to.contain(token);
    expect(decodeURIComponent(link)).not.to.match(/authorization|bearer|headers/i);
    await panel.locator(".yasqe_sharePopup .curl").click();
    const curl = await panel.locator(".yasqe_sharePopup input").inputValue();
    expect(curl).to.match(/^curl /);
    expect(curl).not.to.contain(token);
    expect(await kept(page)).not.to.contain(token);
    const query = new URLSearchParams(new URL(link).hash.split("?")[1]).get("query");
    await page.close();

    const recipient = await browser.newPage({ width: 1366, height: 768 });
    const sent: { authorization?: string; body: string }[] = [];
    recipient.on("request", (r) => {
      if (r.url() === `${app.url}/sparql` && r.method() === "POST")
        sent.push({ authorization: r.headers().authorization, body: r.postData() ?? "" });
    });
    await recipient.goto(link);
    await logIn(recipient, VIEWER);
    const shared = recipient.locator(".yasgui .tabsList a", { hasText: "Shared query" });
    await shared.waitFor();
    const open = recipient.locator(".yasgui .tabPanel.active");
    expect((await open.locator(".CodeMirror-code").innerText()).replace(/\u200b/g, "")).to.contain(
      query!.split("\n").find((l) => l.startsWith("SELECT"))!,
    );
    await open.locator(".yasqe_queryButton").click();
    await open.locator(".yasr_response_chip", { hasText: /results?/ }).waitFor({ timeout: 30_000 });
    expect(sent.length).to.be.greaterThan(0);
    expect(claimsOf(sent[sent.length - 1].authorization).role).to.equal("viewer");
    expect(new URLSearchParams(sent[sent.length - 1].body).get("query")).to.equal(query);
    expect(await recipient.evaluate("location.hash")).to.equal("#sparql");
    expect(await kept(recipient)).not.to.contain(token);
    await recipient.close();
  });

  it("shows a literal holding markup as text: no element made from it, no request, no CSP refusal", async () => {
    const page = await browser.newPage({ width: 1366, height: 768 });
    const fetched: string[] = [];
    page.on("request", (r) => fetched.push(r.url()));
    await page.goto(`${app.url}/#sparql?${new URLSearchParams({ query: MARKUP_QUERY }).toString()}`);
    await logIn(page, VIEWER);
    const panel = page.locator(".yasgui .tabPanel.active");
    await page.locator(".yasgui .tabsList a", { hasText: "Shared query" }).waitFor();
    await panel.locator(".yasqe_queryButton").click();
    await panel.locator(".yasr_response_chip", { hasText: /1 result/ }).waitFor({ timeout: 30_000 });
    const cell = panel.locator(".yasr table.dataTable tbody tr td").nth(1);
    expect(await cell.innerText()).to.contain(MARKUP);
    expect(await panel.locator(".yasr img, .yasr b").count()).to.equal(0);
    await page.waitForTimeout(500); // an image made off-screen would be fetched by now
    expect(fetched.filter((u) => u.includes("x-markup"))).to.deep.equal([]);
    expect(await page.evaluate("window.__pwned")).to.equal(undefined);
    await waitForTrue(page, "document.readyState === 'complete'");
    expect(browser.errors, "console errors (CSP refusals included)").to.deep.equal([]);
    await page.close();
  });
});
