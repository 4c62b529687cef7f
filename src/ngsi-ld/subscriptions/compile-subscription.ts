import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { canonicalName } from "../model/canonical-names";
import { buildFilter } from "../query/build-filter";
import type { GeoQueryParams } from "../query/geo";
import type { EntityFilter } from "../query/query-filter";
import { parseLang } from "../render/language";
import { parseProjection } from "../render/projection";
import type { RenderOptions } from "../render/render-options";
import { renderOptionsKey } from "../render/rendered-json";
import { DEFAULT_TRIGGERS, type NotificationTrigger, type SubscriptionRecord } from "./subscription";

/** A subscription made ready for matching: names resolved with its @context, queries parsed. */
export interface CompiledSubscription {
  record: SubscriptionRecord;
  ctx: CompiledContext;
  filter: EntityFilter;
  /** Canonical names of `watchedAttributes` (undefined = any attribute). */
  watched?: Set<string>;
  triggers: Set<NotificationTrigger>;
  /**
   * The compiled `jsonldContext` (§5.2.12) when it differs from `ctx`: the notified entities are compacted
   * with it, and `render` names attributes as it does.
   */
  notifyCtx?: CompiledContext;
  /** How the notified entities are rendered (§5.2.14 attributes, format, sysAttrs; lang; pick/omit). */
  render: RenderOptions;
  /** {@link renderOptionsKey} of `render`: equal for subscriptions that render alike. */
  renderKey: string;
  /** Index keys: expanded type IRIs, or undefined when the subscription must see every entity. */
  typeKeys?: string[];
}

/**
 * A q written as it would be in a URL (`name=="Eiffel%20Tower"`), percent-decoded as GET /entities decodes
 * its `q` parameter (ETSI GS CIM 009 v1.8 §4.9: the same query language); kept as written when it holds
 * no valid percent-escape.
 */
function urlDecoded(q: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(q)) return q;
  try {
    return decodeURIComponent(q);
  } catch {
    return q;
  }
}

/**
 * Resolves a subscription's names with its @context and parses q, geoQ and scopeQ with the same
 * parsers as entity queries (ETSI GS CIM 009 v1.8 §5.2.12: "q ... as in clause 4.9", "geoQ ... clause
 * 4.10"), so a malformed one is the same 400 BadRequestData as on GET /entities.
 */
export function compileSubscription(
  record: SubscriptionRecord,
  ctx: CompiledContext,
  jsonldContext?: CompiledContext,
): CompiledSubscription {
  const sub = record.sub;
  const canon = (n: string) => canonicalName(ctx, n);
  const notifyCtx = jsonldContext && jsonldContext.key !== ctx.key ? jsonldContext : undefined;
  const shownName = (n: string) => (notifyCtx ? notifyCtx.compactIri(ctx.expandTerm(n)) : canon(n));
  const filter = buildFilter(
    {
      selectors: sub.entities?.map((e) => ({
        type: e.type,
        ids: e.id !== undefined ? [e.id] : undefined,
        idPattern: e.idPattern,
      })),
      q: sub.q === undefined ? undefined : urlDecoded(sub.q),
      scopeQ: sub.scopeQ,
      geo: sub.geoQ ? { params: sub.geoQ as unknown as GeoQueryParams, in: "geoQ" } : undefined,
    },
    ctx,
  );
  const n = sub.notification;
  const render: RenderOptions = {
    format: n.format === "simplified" ? "keyValues" : (n.format ?? "normalized"),
    sysAttrs: n.sysAttrs ?? false,
    attrs: n.attributes ? new Set(n.attributes.map(shownName)) : undefined,
    pick: n.pick ? parseProjection(n.pick.join(","), "notification.pick", shownName) : undefined,
    omit: n.omit ? parseProjection(n.omit.join(","), "notification.omit", shownName) : undefined,
    lang: sub.lang !== undefined ? parseLang(sub.lang) : undefined,
    datasetIds: sub.datasetId ? new Set(sub.datasetId) : undefined,
  };
  const typeKeys = filter.selectors?.every((s) => s.types?.kind === "leaf")
    ? filter.selectors.map((s) => (s.types?.kind === "leaf" ? s.types.leaf : ""))
    : undefined;
  return {
    record,
    ctx,
    filter,
    watched: sub.watchedAttributes ? new Set(sub.watchedAttributes.map(canon)) : undefined,
    triggers: new Set(sub.notificationTrigger ?? DEFAULT_TRIGGERS),
    render,
    renderKey: renderOptionsKey(render),
    typeKeys,
    ...(notifyCtx ? { notifyCtx } : {}),
  };
}
