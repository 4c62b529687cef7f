import type http from "node:http";
import type { Config } from "../config/config";
import { startFeed } from "../demo/ingest/http-feeder";
import { seedIfEmpty } from "../demo/ingest/start-data";
import { CommitPipeline } from "../events/commit-pipeline";
import { OutboundPolicy } from "../jobs/outbound-policy";
import type { Logger } from "../log/logger";
import type { GraphStore } from "../store/graph-store";
import { openAuth } from "../auth/open-auth";
import { routeAccessGate } from "../api/rest/route-access";
import { authGates } from "./auth";
import { openContexts } from "./contexts";
import { dashboardFace } from "./faces/dashboard-face";
import { authFace } from "./faces/auth-face";
import { ngsiLdFace } from "./faces/ngsi-ld-face";
import { open311Face } from "./faces/open311-face";
import { restAFace } from "./faces/rest-a-face";
import { docsFace } from "./faces/docs-face";
import { restBFace } from "./faces/rest-b-face";
import { rootFace } from "./faces/root-face";
import { sparqlFace } from "./faces/sparql-face";
import { cameraImages } from "./images";
import { buildHttpApp, closeServer, listen, routeUpgrades } from "./http";
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
}

/**
 * The composition root (docs/design.md "Layout"): opens the storage, builds the NGSI-LD model and the
 * commit pipeline, mounts the faces on one HTTP server, then seeds the demo city and starts its feed.
 */
export async function startApp(config: Config, log: Logger): Promise<RunningApp> {
  const started = Date.now();
  const storage = await openStorage(config, log);
  const pipeline = new CommitPipeline();
  // where the broker's own requests may go; its own port is added once it listens
  const outbound = new OutboundPolicy(config.outbound);
  if (config.server.port !== 0) outbound.addOwnPort(config.server.port);
  const contexts = await openContexts(config, outbound);
  const core = await buildNgsiLdCore(config, log, storage, contexts, pipeline);
  pipeline.durable("temporal history", (tenant, change, seq) =>
    storage.temporal.recordChange(tenant, change, seq),
  );
  const subs = await startSubscriptions(config, log, storage, contexts, core, pipeline, outbound);
  const federation = await startFederation(config, log, storage, contexts, subs, outbound);
  pipeline.attach(storage.store, core.repo);
  const traffic = await buildTrafficDomain(storage, contexts, core, pipeline);
  subs.onDelivery(
    (r) => r.ok && traffic.alerts.recordDelivery(r.job.body, Date.parse(r.at), r.job.subscriptionId),
  );
  const live = await startLive(config, log, storage, core, traffic, pipeline);
  log.debug("commit pipeline", pipeline.describe());
  if (config.demo.seed)
    await seedIfEmpty(core.batch, contexts.compile, core.index.tenantNames().length === 0, log);
  const reports = await startReports(config, log, core, contexts, pipeline, traffic, outbound);

  const auth = config.auth.enabled ? await openAuth(config, storage.store, log) : undefined;
  const images = cameraImages(config);
  const pushAuth = liveAuth(auth);
  const sparql = sparqlFace(config, log, pipeline);
  const faces = [
    rootFace(storage, subs, federation, { sparql: sparql.health }),
    sparql,
    ngsiLdFace(config, storage, contexts, core, subs, federation),
    restAFace(config, traffic, images, reports, routeAccessGate),
    restBFace(config, traffic, images, core, reports, routeAccessGate),
    docsFace(),
    open311Face(reports),
    ...(auth ? [authFace(auth)] : []),
    wsFace(config, log, live, pushAuth),
    graphqlFace(config, log, graphqlDeps(config, core, traffic, live, pushAuth, reports), pushAuth),
    dashboardFace(config, auth !== undefined),
  ];
  const { server, url } = await listen(config, buildHttpApp(log, faces, authGates(auth, faces)));
  outbound.addOwnPort(Number(new URL(url).port));
  routeUpgrades(server, faces);
  log.info("citygraph listening", { url, entities: core.index.size(""), startupMs: Date.now() - started });
  const credential = auth ? () => auth.serviceToken("demo-feed") : undefined;
  const stopFeed = config.demo.feed ? startFeed({ baseUrl: url, log, credential }) : () => undefined;

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
      for (const f of faces) if (!f.upgrades) await f.close?.();
      await live.close();
      await auth?.close();
      await storage.close();
      log.info("citygraph stopped");
    })());
  return { url, server, store: storage.store, close };
}
