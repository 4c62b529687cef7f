import { faceRouter } from "./face-router";
import { renderProblem } from "../../api/http/faces";
import { registerBatchRoutes } from "../../api/ngsi-ld/batch-routes";
import { registerDiscoveryRoutes } from "../../api/ngsi-ld/discovery-routes";
import { registerEntityRoutes } from "../../api/ngsi-ld/entities-routes";
import { registerJsonLdContextRoutes } from "../../api/ngsi-ld/jsonld-contexts-routes";
import { ngsiRequest } from "../../api/ngsi-ld/ngsi-request";
import { registerQueryRoutes } from "../../api/ngsi-ld/query-routes";
import { registerSubscriptionRoutes } from "../../api/ngsi-ld/subscription-routes";
import { registerTemporalQueryRoutes } from "../../api/ngsi-ld/temporal-query-routes";
import { registerTemporalRoutes } from "../../api/ngsi-ld/temporal-routes";
import type { Config } from "../../config/config";
import type { ContextParts } from "../contexts";
import type { NgsiLdCore } from "../ngsi-ld";
import type { Storage } from "../storage";
import type { SubscriptionParts } from "../subscriptions";
import type { Face } from "./face";
import type { Federation } from "../../ngsi-ld/federation/federation";
import { federationMiddleware } from "../../api/ngsi-ld/federation-middleware";
import { registerCsourceRegistrationRoutes } from "../../api/ngsi-ld/csource-registration-routes";

/** The NGSI-LD API (ETSI GS CIM 009 v1.8) at `/ngsi-ld/v1`, errors as ProblemDetails. */
/** What the NGSI-LD face serves from. */
export interface NgsiLdFaceDeps {
  config: Config;
  storage: Storage;
  contexts: ContextParts;
  core: NgsiLdCore;
  subs: SubscriptionParts;
  federation: Federation;
}

export function ngsiLdFace({
  config,
  storage: { temporal },
  contexts,
  core,
  subs,
  federation,
}: NgsiLdFaceDeps): Face {
  const ngsi = faceRouter("/ngsi-ld/v1");
  ngsi.use(ngsiRequest(contexts.contexts, config.server.maxBodyBytes, config.server.bodyReadTimeoutMs));
  ngsi.use(
    federationMiddleware(
      federation.distributor,
      (t, id) => core.index.types(t, id),
      (v, t) => contexts.contexts.compiled(v, t),
    ),
  );
  registerEntityRoutes(ngsi, core.entities, core.attributes, contexts.responses, (t, id, name, ctx, ds) =>
    core.index.has(t, id) ? Promise.resolve(false) : temporal.recordHistoryOnlyDeletion(t, id, name, ctx, ds),
  );
  registerBatchRoutes(ngsi, core.batch, core.entities, contexts.contexts);
  registerQueryRoutes(ngsi, core.querySources, contexts.rendered, config.query.maxLimit);
  registerJsonLdContextRoutes(ngsi, contexts.registry);
  registerDiscoveryRoutes(ngsi, core.discovery);
  registerTemporalRoutes(ngsi, temporal);
  registerTemporalQueryRoutes(
    ngsi,
    temporal.index,
    config.temporal.temporalPageInstances,
    config.query.maxLimit,
  );
  const { registry } = contexts;
  registerSubscriptionRoutes(ngsi, subs.subscriptions, {
    compile: contexts.compile,
    maxLimit: config.query.maxLimit,
    implicit: registry,
  });
  registerCsourceRegistrationRoutes(ngsi, federation.registrations, config.query.maxLimit);
  const csubs = federation.csourceSubscriptions;
  registerSubscriptionRoutes(ngsi, csubs, {
    compile: contexts.compile,
    maxLimit: config.query.maxLimit,
    base: "/csourceSubscriptions",
    implicit: registry,
  });
  return { mount: { name: "ngsi-ld", prefixes: ["/ngsi-ld/"], renderError: renderProblem }, routers: [ngsi] };
}
