import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import Router from "@koa/router";
import { AppError } from "./errors";
import type { Config } from "./config/config";
import type { Logger } from "./log/logger";
import { openGraphStore } from "./store/open-store";
import { entityWrites, HISTORY_GRAPH_PREFIX, type CommitEvent, type GraphStore } from "./store/graph-store";
import { EntityIndex } from "./store/indexes/entity-index";
import { AttributeIndex } from "./ngsi-ld/query/index/attribute-index";
import { GeoIndex } from "./ngsi-ld/query/geo";
import { EntityViewCache } from "./ngsi-ld/query/entity-view-cache";
import { RenderedEntityCache } from "./ngsi-ld/query/rendered-entity-cache";
import { DiscoveryIndex } from "./ngsi-ld/discovery/discovery-index";
import { ContextLoader } from "./rdf/context-loader";
import { ContextRegistry } from "./rdf/context-registry";
import { ContextService } from "./rdf/context-service";
import { compileContext } from "./rdf/compile-context";
import { entityToTriples, triplesToEntity } from "./ngsi-ld/codec";
import type { EntityCodec } from "./ngsi-ld/entities/entity-codec";
import type { Entity } from "./ngsi-ld/model/entity";
import { GraphCache } from "./store/indexes/graph-cache";
import { scanGraphs } from "./store/indexes/graph-scan";
import { EntityRepository } from "./ngsi-ld/entities/entity-repository";
import { EntityService } from "./ngsi-ld/entities/entity-service";
import { AttributeService } from "./ngsi-ld/entities/attribute-service";
import { BatchService } from "./ngsi-ld/entities/batch-service";
import { seedIfEmpty } from "./demo/ingest/start-data";
import { startFeed } from "./demo/ingest/http-feeder";
import { TRAFFIC_SHORTCUT_ALIASES } from "./domain/vocabulary";
import { errorMiddleware } from "./api/http/error-middleware";
import { registerHealthRoutes } from "./api/http/health-routes";
import { registerSparqlRoutes } from "./api/sparql/sparql-routes";
import { SparqlReplica } from "./store/replica/sparql-replica";
import { ngsiRequest } from "./api/ngsi-ld/ngsi-request";
import { registerEntityRoutes } from "./api/ngsi-ld/entities-routes";
import { ResponseCache } from "./api/ngsi-ld/response-cache";
import { registerBatchRoutes } from "./api/ngsi-ld/batch-routes";
import { registerQueryRoutes } from "./api/ngsi-ld/query-routes";
import { registerJsonLdContextRoutes } from "./api/ngsi-ld/jsonld-contexts-routes";
import { registerDiscoveryRoutes } from "./api/ngsi-ld/discovery-routes";
import { registerTemporalRoutes } from "./api/ngsi-ld/temporal-routes";
import { registerTemporalQueryRoutes } from "./api/ngsi-ld/temporal-query-routes";
import { TemporalService } from "./ngsi-ld/temporal/temporal-service";
import { registerSubscriptionRoutes } from "./api/ngsi-ld/subscription-routes";
import { registerNotificationRoutes } from "./api/http/notification-routes";
import { registerDashboardRoutes } from "./api/dashboard/dashboard-routes";
import { SubscriptionIndex } from "./ngsi-ld/subscriptions/subscription-index";
import { SubscriptionRepository } from "./ngsi-ld/subscriptions/subscription-repository";
import { SubscriptionService } from "./ngsi-ld/subscriptions/subscription-service";
import { SubscriptionNotifier } from "./ngsi-ld/subscriptions/subscription-notifier";
import { queryEntities } from "./ngsi-ld/query/entity-query";
import { createNotificationQueue } from "./jobs/create-queue";
import { closeMqttClients } from "./jobs/mqtt-sender";

/** The fast JSON-LD codec (src/ngsi-ld/codec) as the repository's entity <-> triples mapping. */
const fastEntityCodec: EntityCodec = {
  toTriples: (e, ctx) =>
    entityToTriples(e as Parameters<typeof entityToTriples>[0], ctx, {
      shortcutAliases: TRAFFIC_SHORTCUT_ALIASES,
    }),
  fromTriples: (t, id, ctx) => triplesToEntity(t, id, ctx) as Entity,
};

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
 * The composition root (DESIGN.md "Layout"): the one place that wires the store, the indexes, the
 * contexts, the services and the faces together, then listens on `config.port`.
 */
export async function startApp(config: Config, log: Logger): Promise<RunningApp> {
  const started = Date.now();
  const opening = openGraphStore({
    dataDir: config.dataDir,
    maxQuads: config.maxQuads,
    journalCompactBytes: config.journalCompactBytes,
    compactQuietMs: config.journalCompactQuietMs,
    journalCompactMaxBytes: config.journalCompactMaxBytes,
    reclaimDroppedQuads: config.storeReclaimQuads,
    // history segments are read by SPARQL only, i.e. by the replica: journaled, never in the store's memory
    diskOnlyGraphPrefixes: [HISTORY_GRAPH_PREFIX],
    heapReduceIntervalMs: config.heapReduceIntervalMs,
    log: (level, msg, fields) => log.log(level, msg, fields),
  });
  // The history is read from its own log on this thread while the store worker recovers on its own (the
  // worker started above); it seals into the graph once the store is open.
  const temporal = openOrCloseStore(opening, () =>
    TemporalService.open({
      dir: path.join(config.dataDir, "history"),
      retentionMs: config.temporalRetentionMs,
      compactBytes: Math.min(config.journalCompactBytes, 128 * 1024 * 1024),
      sealEveryMs: config.temporalSealMs,
      sealQuietMs: config.temporalSealQuietMs,
      sealMaxDeferMs: config.temporalSealMaxDeferMs,
      log: (level, msg, fields) => log.log(level, msg, fields),
    }),
  );
  const store = await opening.catch(async (e: unknown) => {
    await temporal.close();
    throw e;
  });
  temporal.attachGraph(store);
  // the indexes derived from entities never see the broker's internal graphs (subscriptions)
  const onEntityCommit = (l: (e: CommitEvent) => void) =>
    store.onCommit((e) => {
      const only = entityWrites(e);
      if (only) l(only);
    });
  const index = new EntityIndex();
  const idsStart = Date.now();
  await index.rebuild(store);
  log.info("entity index rebuilt", { entities: index.size(""), ms: Date.now() - idsStart });
  onEntityCommit((e) => index.apply(e));
  // filled in the background by the one scan below, together with the attribute index
  const geo = new GeoIndex();
  onEntityCommit((e) => geo.apply(e));
  const discovery = new DiscoveryIndex(store, index);
  onEntityCommit((e) => discovery.apply(e));
  const cache = new GraphCache(config.graphCacheBytes);
  onEntityCommit((e) => cache.apply(e));
  const loader = new ContextLoader({
    dataDir: config.dataDir,
    preloadDir: config.preloadContextsDir,
    timeoutMs: config.contextFetchTimeoutMs,
  });
  const registry = new ContextRegistry({ dataDir: config.dataDir, loader });
  const contexts = new ContextService({ loader, compile: compileContext, usage: registry });
  const responses = new ResponseCache();
  onEntityCommit((e) => responses.apply(e));
  const rendered = new RenderedEntityCache(config.queryCacheBytes);
  onEntityCommit((e) => rendered.apply(e));
  registry.onChange(() => {
    contexts.clear();
    responses.clear();
    rendered.clear();
  });
  await registry.init();
  await contexts.init();
  const coreCtx = await contexts.compiled(undefined);
  const attrIndex = new AttributeIndex((t, id) => fastEntityCodec.fromTriples(t, id, coreCtx), coreCtx);
  onEntityCommit((e) => attrIndex.apply(e));
  // One pass over every entity graph fills the attribute and geo indexes, in the background: the service
  // answers at once, queries wait for the attribute index (ready()) before they consult either index.
  const scanStart = Date.now();
  const scan = scanGraphs(store, (t) => index.ids(t), [attrIndex, geo], {
    progress: (p) => log.info("derived indexes filling", p),
  });
  attrIndex.fillingBy(scan).then(
    () => log.info("derived indexes filled (attribute, geo)", { ms: Date.now() - scanStart }),
    (e: unknown) => log.error("derived index fill failed", { error: String(e) }),
  );
  const repo = new EntityRepository(store, index, fastEntityCodec, cache, geo);
  const views = new EntityViewCache(repo, 5_000);
  onEntityCommit((e) => views.apply(e));
  const querySources = { index: attrIndex, geo, views };
  repo.onDurableCommit((tenant, meta) => temporal.recordChange(tenant, meta));

  const compile = (v: unknown) => contexts.compiled(v);
  const subscriptions = new SubscriptionService(
    new SubscriptionRepository(store),
    new SubscriptionIndex(),
    compile,
    (msg, fields) => log.warn(msg, fields),
  );
  await subscriptions.load();
  const notifier = new SubscriptionNotifier({
    service: subscriptions,
    read: (tenant, ids, ctx) => views.read(tenant, ids, ctx),
    recompact: (e, from, to) => fastEntityCodec.fromTriples(fastEntityCodec.toTriples(e, from), e.id, to),
    query: async (tenant, filter, ctx) =>
      (
        await queryEntities(
          querySources,
          tenant,
          { ...filter, limit: config.maxLimit, offset: 0, count: false },
          ctx,
        )
      ).entities,
    statsFlushMs: config.notify.statusFlushMs,
    log: (level, msg, fields) => log.log(level, msg, fields),
  });
  const queue = createNotificationQueue(
    config.notify,
    config.redisUrl,
    (r) => notifier.onResult(r),
    (e) => log.error("notification queue error", { error: e.message }),
  );
  notifier.attach(queue);
  store.onCommit((e) => notifier.onCommit(e));
  repo.setCommitBarrier((seq) => notifier.settled(seq));
  const entities = new EntityService(repo);

  const batch = new BatchService(repo);
  if (config.seed) await seedIfEmpty(batch, compile, index.tenantNames().length === 0, log);

  const app = new Koa();
  app.proxy = false;
  app.use(errorMiddleware(log));
  const root = new Router();
  registerHealthRoutes(root, store, {});
  const sparql = new SparqlReplica({
    dataDir: config.dataDir,
    store,
    timeoutMs: config.sparqlTimeoutMs,
    eager: config.sparqlReplica === "eager",
    reclaimDroppedQuads: config.storeReclaimQuads,
    heapReduceIntervalMs: config.heapReduceIntervalMs,
    log: (level, msg, fields) => log.log(level, msg, fields),
  });
  registerSparqlRoutes(root, sparql, { maxBodyBytes: config.maxBodyBytes, maxRows: config.sparqlMaxRows });
  const ngsi = new Router({ prefix: "/ngsi-ld/v1" });
  ngsi.use(ngsiRequest(contexts, config.maxBodyBytes));
  registerEntityRoutes(ngsi, entities, new AttributeService(repo), responses);
  registerBatchRoutes(ngsi, batch, entities, contexts);
  registerQueryRoutes(ngsi, querySources, rendered, config.maxLimit);
  registerJsonLdContextRoutes(ngsi, registry);
  registerDiscoveryRoutes(ngsi, discovery);
  registerTemporalRoutes(ngsi, temporal);
  registerTemporalQueryRoutes(ngsi, temporal.index, config.temporalPageInstances, config.maxLimit);
  registerSubscriptionRoutes(ngsi, subscriptions, compile, config.maxLimit);
  registerNotificationRoutes(root, queue);
  // no face asks for a token yet: the page opens without its login view
  registerDashboardRoutes(root, { ...config.dashboard, authRequired: false });
  for (const r of [root, ngsi]) {
    app.use(r.routes());
    app.use(
      r.allowedMethods({
        throw: true,
        methodNotAllowed: () => new AppError("MethodNotAllowed", "Method not allowed on this resource"),
        notImplemented: () => new AppError("OperationNotSupported", "Method not implemented"),
      }),
    );
  }
  app.use(async () => {
    throw new AppError("ResourceNotFound", "No such resource");
  });

  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  log.info("citygraph listening", { url, entities: index.size(""), startupMs: Date.now() - started });
  const stopFeed = config.feed ? startFeed({ baseUrl: url, log }) : () => undefined;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopFeed();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      notifier.close();
      await subscriptions.flush();
      await queue.close();
      await closeMqttClients();
      await sparql.close();
      await temporal.close();
      await store.close();
      log.info("citygraph stopped");
    })());
  return { url, server, store, close };
}

/**
 * Runs `open` (a part of start-up that runs while the store worker recovers); if it throws, the store is
 * closed once it has opened (a failed start leaves no worker behind), and the error goes on.
 */
function openOrCloseStore<T>(opening: Promise<GraphStore>, open: () => T): T {
  try {
    return open();
  } catch (e) {
    opening.then(
      (s) => s.close(),
      () => undefined,
    );
    throw e;
  }
}
