import fetch, { type RequestInit, type Response } from "node-fetch";
import type { OutboundAgents } from "./outbound-agents";

/** Options of {@link outboundFetch}: node-fetch's, with how many redirects may be followed. */
export type OutboundInit = Omit<RequestInit, "agent" | "redirect" | "follow"> & {
  /** Redirects followed (GET only), each to an http(s) URL and through the same checked agents; 0 by default. */
  maxRedirects?: number;
};

/** A fetch bound to the outbound policy (see {@link outboundFetch}). */
export type OutboundFetchFn = (url: string, init?: OutboundInit) => Promise<Response>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The one HTTP client of requests to addresses that a client or a stored record chose: node-fetch over
 * `agents`, whose every connection the outbound policy checks after name resolution. A redirect is an
 * answer (3xx) unless `maxRedirects` allows following it; then each hop is a new request through the same
 * agents, so a hop to a refused address fails like the first request would.
 */
export async function outboundFetch(
  agents: OutboundAgents,
  url: string,
  init: OutboundInit = {},
): Promise<Response> {
  const { maxRedirects = 0, ...rest } = init;
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { ...rest, agent: (u) => agents.for(u.protocol), redirect: "manual" });
    const location = res.headers.get("location");
    if (!REDIRECTS.has(res.status) || !location || hop >= maxRedirects || (rest.method ?? "GET") !== "GET") {
      return res;
    }
    const next = new URL(location, current);
    if (next.protocol !== "http:" && next.protocol !== "https:") return res;
    await res.arrayBuffer().catch(() => undefined);
    current = next.href;
  }
}

/** {@link outboundFetch} bound to `agents`. */
export const boundOutboundFetch =
  (agents: OutboundAgents): OutboundFetchFn =>
  (url, init) =>
    outboundFetch(agents, url, init);
