import type { LiveEvent } from "../../../events/live-event";
import type { GraphqlContext } from "../graphql-context";
import { LiveSource } from "../live-source";
import { weatherNode } from "./query";
import type { Resolvers } from "./resolver-map";

/**
 * §6 GraphQL subscriptions, fed by the live bus (the same events as `/ws`): `subscribe` gives the
 * filter of the subscription as a {@link LiveSource}; `resolve` turns an event into the field's value.
 */
export const subscriptionResolvers: Resolvers = {
  Subscription: {
    trafficUpdates: {
      subscribe: (_r, a: { zones?: string[] | null }, ctx: GraphqlContext) =>
        new LiveSource(
          { tenant: "", channel: "traffic", keys: a.zones ?? undefined },
          ctx.bus,
          ctx.queueMessages,
        ),
      resolve: (e: LiveEvent) => (e.channel === "traffic" ? { timestamp: e.at, zones: [e.data] } : null),
    },
    accidentAlerts: {
      subscribe: (_r, a: { severity?: string[] | null }, ctx: GraphqlContext) =>
        new LiveSource(
          { tenant: "", channel: "accidents", keys: a.severity?.map((s) => s.toLowerCase()) },
          ctx.bus,
          ctx.queueMessages,
        ),
      resolve: (e: LiveEvent) => (e.channel === "accidents" ? e.data : null),
    },
    weatherUpdates: {
      subscribe: (_r, _a, ctx: GraphqlContext) =>
        new LiveSource({ tenant: "", channel: "weather" }, ctx.bus, ctx.queueMessages),
      resolve: (e: LiveEvent) => (e.channel === "weather" ? weatherNode(e.at, e.data) : null),
    },
  },
};
