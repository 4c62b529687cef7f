import { expect } from "chai";
import { TRAFFIC_CONTEXT_URL } from "../../../src/domain/vocabulary";
import { http, linkTo, startTestApp, type TestApp } from "../helpers/test-app";

type Ready = { status: string; notReady?: string[] };

describe("probes: /health/live and /health/ready", function () {
  this.timeout(120_000);
  let app: TestApp | undefined;
  after(() => app?.destroy());

  it("is 503 until the feed's backfill and the indexes are done, then 200", async () => {
    app = await startTestApp({ SEED: "on", FEED: "on", FEED_BACKFILL: "1h" });
    const live = await http(app.url, "GET", "/health/live");
    expect(live.status).to.equal(200);
    expect(live.body).to.deep.equal({ status: "live" });
    const first = await http(app.url, "GET", "/health/ready");
    expect(first.status, first.text).to.equal(503);
    expect((first.body as Ready).status).to.equal("not ready");
    expect((first.body as Ready).notReady).to.include("feed backfill");
    // /health keeps its verdict (the store answers) and says the same about readiness
    const health = await http(app.url, "GET", "/health");
    expect(health.status).to.equal(200);
    expect(health.body).to.include({ status: "ok", ready: false });
    expect((health.body as Ready).notReady).to.include("feed backfill");

    const seen = new Set<string>();
    const deadline = Date.now() + 90_000;
    let last = first;
    while (last.status !== 200 && Date.now() < deadline) {
      for (const n of (last.body as Ready).notReady ?? []) seen.add(n);
      await new Promise((r) => setTimeout(r, 100));
      last = await http(app.url, "GET", "/health/ready");
    }
    expect(last.status, last.text).to.equal(200);
    expect(last.body).to.deep.equal({ status: "ready" });
    expect(
      [...seen].every((n) => ["feed backfill", "indexes filled"].includes(n)),
      [...seen].join(),
    ).to.equal(true);
    // ready means the backfilled observations are there
    const flows = await http(
      app.url,
      "GET",
      "/ngsi-ld/v1/entities?type=TrafficFlowObserved&count=true&limit=1",
      undefined,
      { Link: linkTo(TRAFFIC_CONTEXT_URL) },
    );
    expect(flows.status, flows.text).to.equal(200);
    expect(Number(flows.headers.get("ngsild-results-count"))).to.be.greaterThan(0);
    const after = await http(app.url, "GET", "/health");
    expect(after.body).to.deep.include({ status: "ok", ready: true, notReady: [] });
  });
});
