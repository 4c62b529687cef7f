import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import { OutboundDenied, type OutboundPolicy } from "./outbound-policy";

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;
type ConnectCallback = (err: Error | null, socket: Duplex) => void;

/**
 * A `lookup` for one connection that resolves `host` as dns.lookup does and hands the socket only
 * addresses the policy allows: the address checked is the address connected to (no second lookup).
 */
function checkedLookup(policy: OutboundPolicy, port: number) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, list) => {
      if (err) return callback(err, "");
      for (const { address } of list) {
        const why = policy.refusalOfAddress(address, port);
        if (why) return callback(denied(hostname, why), "");
      }
      if (options.all) return callback(null, list);
      if (!list.length)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
      callback(null, list[0].address, list[0].family);
    });
  };
}

const denied = (host: string, why: string) =>
  new OutboundDenied(`Requests to ${host} are not allowed: ${why}`);

/**
 * Asks the policy about one connection before it is opened: an IP literal or a known name at once, any
 * other name through {@link checkedLookup}. Returns the options to connect with, or the refusal.
 */
function guarded<O extends http.ClientRequestArgs>(
  policy: OutboundPolicy,
  options: O,
  defaultPort: number,
): O | Error {
  const host = String(options.host ?? options.hostname ?? "localhost");
  const port = Number(options.port ?? defaultPort);
  const why = policy.refusalOfHost(host, port);
  if (why) return denied(host, why);
  return net.isIP(host.replace(/^\[|\]$/g, ""))
    ? options
    : { ...options, lookup: checkedLookup(policy, port) };
}

/**
 * The HTTP and HTTPS agents of every request the broker sends where a client or a stored record chose the
 * address (notifications, alert webhooks, Web Push, context sources, @context downloads, the SMS gateway):
 * each connection they open is checked by the outbound policy against the address it connects to, after
 * name resolution, so neither a redirect nor a name that resolves to a refused address gets past it.
 * Connections are kept alive and reused per host and port.
 */
export class OutboundAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;

  constructor(policy: OutboundPolicy) {
    class GuardedHttp extends http.Agent {
      override createConnection(
        options: http.ClientRequestArgs,
        callback?: ConnectCallback,
      ): Duplex | null | undefined {
        const o = guarded(policy, options, 80);
        if (!(o instanceof Error)) return super.createConnection(o, callback);
        process.nextTick(() => callback?.(o, undefined as never));
        return undefined;
      }
    }
    class GuardedHttps extends https.Agent {
      override createConnection(
        options: https.RequestOptions,
        callback?: ConnectCallback,
      ): Duplex | null | undefined {
        const o = guarded(policy, options, 443);
        if (!(o instanceof Error)) return super.createConnection(o, callback);
        process.nextTick(() => callback?.(o, undefined as never));
        return undefined;
      }
    }
    this.http = new GuardedHttp({ keepAlive: true, maxSockets: 256 });
    this.https = new GuardedHttps({ keepAlive: true, maxSockets: 256 });
  }

  /** The agent for `url`'s scheme. */
  for(url: URL | string): http.Agent {
    return String(url).startsWith("https") ? this.https : this.http;
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

const byPolicy = new WeakMap<OutboundPolicy, OutboundAgents>();

/** The one pair of agents of `policy` (every sender of a running broker shares their connections). */
export function outboundAgents(policy: OutboundPolicy): OutboundAgents {
  let a = byPolicy.get(policy);
  if (!a) byPolicy.set(policy, (a = new OutboundAgents(policy)));
  return a;
}
