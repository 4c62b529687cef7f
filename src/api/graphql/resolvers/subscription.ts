import type { LiveEvent } from "../../../events/live-event";
import type { LiveFilter } from "../../../events/subscriber-index";
import { EventStream } from "../event-stream";
import type { GraphqlContext } from "../graphql-context";
import { weatherNode } from "./query";
import type { Resolvers } from "./resolver-map";

/**
 * §6 GraphQL subscriptions, fed by the live bus (the same events as `/ws`): each subscription is a
 * bounded stream; traffic updates of one zone coalesce (newest wins) while they wait for a slow reader.
 */
export const subscriptionResolvers: Resolvers = {
  Subscription: {
    trafficUpdates: {
      subscribe: (_r, a: { zones?: string[] | null }, ctx: GraphqlContext) =>
        stream(ctx, { tenant: "", channel: "traffic", keys: a.zones ?? undefined }),
      resolve: (e: LiveEvent) => (e.channel === "traffic" ? { timestamp: e.at, zones: [e.data] } : null),
    },
    accidentAlerts: {
      subscribe: (_r, a: { severity?: string[] | null }, ctx: GraphqlContext) =>
        stream(ctx, { tenant: "", channel: "accidents", keys: a.severity?.map((s) => s.toLowerCase()) }),
      resolve: (e: LiveEvent) => (e.channel === "accidents" ? e.data : null),
    },
    weatherUpdates: {
      subscribe: (_r, _a, ctx: GraphqlContext) => stream(ctx, { tenant: "", channel: "weather" }),
      resolve: (e: LiveEvent) => (e.channel === "weather" ? weatherNode(e.at, e.data) : null),
    },
  },
};

function stream(ctx: GraphqlContext, filter: LiveFilter): EventStream<LiveEvent> {
  let cancel = () => undefined as void;
  const s = new EventStream<LiveEvent>(
    ctx.queueMessages,
    () => cancel(),
    () => ctx.closeSlow?.(),
    (e) => (e.channel === "traffic" ? e.data.zoneId : undefined),
  );
  cancel = ctx.bus.subscribe(filter, (e) => s.push(e));
  return s;
}
