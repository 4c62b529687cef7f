import type http from "node:http";
import type { Config } from "../config/config";
import { startFeed } from "../demo/ingest/http-feeder";
import { seedIfEmpty } from "../demo/ingest/start-data";
import { CommitPipeline } from "../events/commit-pipeline";
import { outboundAgents } from "../jobs/outbound-agents";
import { OutboundPolicy } from "../jobs/outbound-policy";
import type { Logger } from "../log/logger";
import type { GraphStore } from "../store/graph-store";
import { openAuth } from "../auth/open-auth";
import { routeAccessGate } from "../api/rest/route-access";
import { tileOrigins } from "../api/http/security-headers";
import { authGates } from "./auth";
import { openContexts } from "./contexts";
import { dashboardFace } from "./faces/dashboard-face";
import { authFace } from "./faces/auth-face";
import { backupFace } from "./faces/backup-face";
import { ngsiLdFace } from "./faces/ngsi-ld-face";
import { ldesFace } from "./faces/ldes-face";
import { open311Face } from "./faces/open311-face";
import { restAFace } from "./faces/rest-a-face";
import { docsFace } from "./faces/docs-face";
import { restBFace } from "./faces/rest-b-face";
import { rootFace } from "./faces/root-face";
import { sparqlFace } from "./faces/sparql-face";
import { cameraImages } from "./images";
import { buildHttpApp, closeServer, countInFlight, listen, routeUpgrades } from "./http";
import { reportDelivery } from "../jobs/job-stamp";
import { startOperations } from "./operations";
import { graphqlDeps } from "./graphql-deps";
import { startLive } from "./live";
import { graphqlFace } from "./faces/graphql-face";
import { wsFace } from "./faces/ws-face";
import { liveAuth } from "./live-auth";
import { buildNgsiLdCore } from "./ngsi-ld";
import { startReports } from "./reports";
import { openStorage } from "./storage";
import { startSubscriptions } from "./subscriptions";
import { startFederation } from "./federation";
import { buildTrafficDomain } from "./traffic";

/** A running citygraph service. */
export interface RunningApp {
  /** Base URL, e.g. http://127.0.0.1:1026 */
  url: string;
  server: http.Server;
  store: GraphStore;
  /** Graceful stop: no new connections, in-flight requests finish, the journal is flushed. */
  close(): Promise<void>;
  /**
   * The stop of SIGTERM (docs/operations.md "Restart and upgrade"): not ready at once, new requests get 503
   * with Retry-After, in-flight requests get up to `graceMs` (SHUTDOWN_GRACE_MS) to finish, then
   * {@link close} (WebSockets closed with 1001, the journal synced, queued notifications left in Redis or, in
   * process, in a file of DATA_DIR for the next start).
   */
  shutdown(graceMs?: number): Promise<void>;
}

/**
 * The composition root (docs/design.md "Layout"): opens the storage, builds the NGSI-LD model and the
 * commit pipeline, mounts the faces on one HTTP server, then seeds the demo city and starts its feed.
 */
export async function startApp(config: Config, log: Logger): Promise<RunningApp> {
  const started = Date.now();
  const ops = await startOperations(config, log);
  const storage = await openStorage(config, log, ops.metrics);
  const pipeline = new CommitPipeline();
  // where the broker's own requests may go; its own port is added once it listens
  const outbound = new OutboundPolicy(config.outbound);
  if (config.server.port !== 0) outbound.addOwnPort(config.server.port);
  const contexts = await openContexts(config, outbound);
  const core = await buildNgsiLdCore(config, log, storage, contexts, pipeline);
  pipeline.durable("temporal history", (tenant, change, seq) =>
    storage.temporal.recordChange(tenant, change, seq),
  );
  const subs = await startSubscriptions({ config, log, storage, contexts, core, pipeline, outbound });
  const federation = await startFederation({ config, log, storage, contexts, subs, outbound });
  pipeline.attach(storage.store, core.repo);
  const traffic = await buildTrafficDomain(storage, contexts, core, pipeline);
  subs.onDelivery(
    (r) => r.ok && traffic.alerts.recordDelivery(r.job.body, Date.parse(r.at), r.job.subscriptionId),
  );
  subs.onDelivery((r) => reportDelivery(ops.metrics, "notifications", r));
  const live = await startLive({ config, log, storage, core, traffic, pipeline });
  log.debug("commit pipeline", pipeline.describe());
  if (config.demo.seed)
    await seedIfEmpty(core.batch, contexts.compile, core.index.tenantNames().length === 0, log);
  const reports = await startReports({
    config,
    log,
    core,
    contexts,
    pipeline,
    traffic,
    outbound,
    storage,
    metrics: ops.metrics,
  });
  // the jobs a clean stop left, once every subscription that may still want them is loaded
  for (const q of [subs.queue, reports.alertQueue, reports.verifyQueue]) q.resume?.();

  const auth = config.auth.enabled ? await openAuth(config, storage.store, log) : undefined;
  const images = cameraImages(config);
  const pushAuth = liveAuth(auth, config.live.maxSocketsPerPrincipal);
  const sparql = sparqlFace(config, ops.metrics);
  ops.probes.sparql = sparql.health;
  // the IRIs the service mints start with PUBLIC_URL, else with the address it listens on (known below)
  let publicUrl = config.server.publicUrl ?? "";
  const faces = [
    rootFace(storage, subs, federation, ops, config.operations.metricsToken),
    sparql,
    ngsiLdFace({ config, storage, contexts, core, subs, federation }),
    ldesFace(config, storage, core, () => publicUrl),
    restAFace(config, traffic, images, reports, routeAccessGate),
    restBFace({ config, traffic, images, core, reports, gate: routeAccessGate }),
    docsFace(),
    open311Face(reports),
    backupFace(
      config,
      log,
      storage,
      async () => {
        await Promise.all([subs.subscriptions.flush(), federation.csourceSubscriptions.flush()]);
      },
      { writeAs: (name) => core.writeIndexImageAs(name) },
    ),
    ...(auth ? [authFace(auth, ops.metrics)] : []),
    wsFace(config, log, live, pushAuth, ops.metrics),
    graphqlFace(
      config,
      log,
      graphqlDeps({ config, core, traffic, live, auth: pushAuth, reports }),
      pushAuth,
      ops.metrics,
    ),
    dashboardFace(config, auth !== undefined),
  ];
  const { readiness } = ops;
  const http = buildHttpApp(log, faces, authGates(auth, faces), {
    metrics: ops.exposition,
    spans: ops.spans,
    draining: () => readiness.draining,
    securityHeaders: { imageOrigins: tileOrigins(config.dashboard.tilesUrl) },
    publicUrl: config.server.publicUrl,
  });
  const { server, url } = await listen(config, http);
  publicUrl ||= url;
  const inFlight = countInFlight(server);
  outbound.addOwnPort(Number(new URL(url).port));
  routeUpgrades(server, faces, ops.spans);
  log.info("citygraph listening", { url, entities: core.index.size(""), startupMs: Date.now() - started });
  const credential = auth ? () => auth.serviceToken("demo-feed") : undefined;
  const backfill = { done: 0, total: 1, caughtUp: !config.demo.feed };
  const stopFeed = config.demo.feed
    ? startFeed({
        baseUrl: url,
        log,
        credential,
        backfillMs: config.demo.backfillMs,
        onTick: (b) => {
          ops.metrics.feedTick();
          Object.assign(backfill, b, { caughtUp: backfill.caughtUp || b.done >= b.total });
        },
      })
    : () => undefined;
  readiness.add("store loaded", () => true);
  readiness.add("indexes filled", () => core.indexesFilled());
  if (config.demo.feed) readiness.add("feed backfill", () => backfill.caughtUp);
  ops.metrics.addSources({
    store: () => storage.store.stats(),
    entities: () => core.index.tenantNames().reduce((n, t) => n + core.index.size(t), 0),
    queues: async () => ({
      notifications: { ...(await subs.queue.counts()) },
      alerts: { ...(await reports.alertQueue.counts()) },
      verification: { ...(await reports.verifyQueue.counts()) },
    }),
    temporal: () => storage.temporal.stats(),
    backfill: () => (config.demo.feed ? backfill : undefined),
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopFeed();
      // open WebSockets hold the HTTP server's close: the socket faces close theirs first
      for (const f of faces) if (f.upgrades) await f.close?.();
      await closeServer(server);
      await federation.close();
      await subs.close();
      await reports.close();
      outboundAgents(outbound).close();
      for (const f of faces) if (!f.upgrades) await f.close?.();
      await live.close();
      await auth?.close();
      await storage.close();
      await core.saveIndexImage();
      await ops.close();
      log.info("citygraph stopped");
    })());
  const shutdown = async (graceMs = config.operations.shutdownGraceMs) => {
    readiness.drain();
    stopFeed();
    const deadline = Date.now() + graceMs;
    while (inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // what still runs at the deadline is cut off
    const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, deadline - Date.now()));
    await close();
    clearTimeout(cut);
  };
  return { url, server, store: storage.store, close, shutdown };
}
