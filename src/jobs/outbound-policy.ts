import dns from "node:dns/promises";
import net from "node:net";
import os from "node:os";

/** Options of {@link OutboundPolicy} (config OUTBOUND_ALLOW_LOOPBACK, OUTBOUND_DENY). */
export interface OutboundPolicyOptions {
  /** Loopback addresses (127.0.0.0/8, ::1, localhost) may be reached, on other ports than the broker's. */
  allowLoopback: boolean;
  /** More denied destinations: IP addresses, CIDR ranges (`10.0.0.0/8`) or host names. */
  deny: string[];
}

/** A destination the policy refuses; its message names the URL's host only, never an address or port map. */
export class OutboundDenied extends Error {}

const LINK_LOCAL_AND_UNSPECIFIED: [string, number, "ipv4" | "ipv6"][] = [
  ["169.254.0.0", 16, "ipv4"],
  ["0.0.0.0", 8, "ipv4"],
  ["fe80::", 10, "ipv6"],
  ["::", 128, "ipv6"],
];
const LOOPBACK: [string, number, "ipv4" | "ipv6"][] = [
  ["127.0.0.0", 8, "ipv4"],
  ["::1", 128, "ipv6"],
];

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) as the IPv4 address it maps. */
const unmapped = (ip: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip);

/**
 * Where the broker may send requests of its own (remote @context fetches, notification endpoints): never
 * to link-local addresses (cloud metadata services), unspecified addresses, the broker itself (its own
 * port on a local address) or a configured deny list; to loopback only when allowed (a test or conformance
 * run whose receivers listen on 127.0.0.1). Host names are resolved and every address they give is checked.
 */
export class OutboundPolicy {
  private readonly always = new net.BlockList();
  private readonly loopback = new net.BlockList();
  private readonly denied = new net.BlockList();
  private readonly deniedNames = new Set<string>();
  private readonly ownPorts = new Set<number>();

  constructor(private readonly opts: OutboundPolicyOptions) {
    for (const [a, p, t] of LINK_LOCAL_AND_UNSPECIFIED) this.always.addSubnet(a, p, t);
    for (const [a, p, t] of LOOPBACK) this.loopback.addSubnet(a, p, t);
    for (const d of opts.deny) {
      const [addr, bits] = d.split("/");
      const type = net.isIPv4(addr) ? "ipv4" : net.isIPv6(addr) ? "ipv6" : undefined;
      if (!type) this.deniedNames.add(normalHost(d));
      else if (bits === undefined) this.denied.addAddress(addr, type);
      else this.denied.addSubnet(addr, Number(bits), type);
    }
  }

  /** Notes a port this process listens on: requests to it on a local address are refused. */
  addOwnPort(port: number): void {
    this.ownPorts.add(port);
  }

  /**
   * The reason `url` is refused without resolving names (IP literals, `localhost`, denied names), or
   * undefined. For checks at the time a client names a URL (a subscription's endpoint).
   */
  refusalOf(url: string): string | undefined {
    const u = parsed(url);
    return u ? this.refusalOfHost(u.host, u.port) : undefined;
  }

  /**
   * The reason a connection to `host` (a name or an IP literal) on `port` is refused before any name is
   * resolved, or undefined. A trailing dot (`LOCALHOST.`) names the same host as without it.
   */
  refusalOfHost(host: string, port: number): string | undefined {
    const h = normalHost(host);
    if (this.deniedNames.has(h)) return `${h} is on the deny list`;
    if (h === "localhost" || h.endsWith(".localhost")) return this.refusalOfAddress("127.0.0.1", port);
    return net.isIP(h) ? this.refusalOfAddress(h, port) : undefined;
  }

  /** Throws OutboundDenied unless every address `url`'s host resolves to is allowed. */
  async check(url: string): Promise<void> {
    const why = await this.refusalResolved(url, Infinity);
    if (why) throw new OutboundDenied(`Requests to ${parsed(url)?.host} are not allowed: ${why}`);
  }

  /**
   * The reason `url` is refused, its host name resolved and every address checked, or undefined: for
   * checks when a client names a URL (a subscription's endpoint, a registration's). A name that does not
   * resolve, or not within `timeoutMs`, passes here; each request checks again when it connects.
   */
  async refusalResolved(url: string, timeoutMs = 2000): Promise<string | undefined> {
    const u = parsed(url);
    if (!u) return undefined;
    const literal = this.refusalOfHost(u.host, u.port);
    if (literal || net.isIP(u.host)) return literal;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((r) => {
      if (timeoutMs !== Infinity) timer = setTimeout(() => r(undefined), timeoutMs);
    });
    const addresses = await Promise.race([dns.lookup(u.host, { all: true }).catch(() => undefined), late]);
    clearTimeout(timer);
    for (const { address } of addresses ?? []) {
      const why = this.refusalOfAddress(address, u.port);
      if (why) return why;
    }
    return undefined;
  }

  /** The reason a connection to the address `ip` on `port` is refused, or undefined. */
  refusalOfAddress(ip: string, port: number): string | undefined {
    const a = unmapped(ip);
    const type = net.isIPv4(a) ? "ipv4" : "ipv6";
    if (this.always.check(a, type)) return "a link-local or unspecified address";
    if (this.denied.check(a, type)) return "an address on the deny list";
    const isLoopback = this.loopback.check(a, type);
    if (this.ownPorts.has(port) && (isLoopback || localAddresses().has(a))) return "the broker itself";
    if (isLoopback && !this.opts.allowLoopback) return "a loopback address (OUTBOUND_ALLOW_LOOPBACK is off)";
    return undefined;
  }
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443, "mqtt:": 1883, "mqtts:": 8883 };

function parsed(url: string): { host: string; port: number } | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  return { host: normalHost(u.hostname), port: u.port ? Number(u.port) : (DEFAULT_PORTS[u.protocol] ?? 0) };
}

/** A host as the policy compares it: without IPv6 brackets or trailing dots, in lower case. */
function normalHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
}

let local: { at: number; set: Set<string> } | undefined;
/** The addresses of this host's interfaces (kept for a minute). */
function localAddresses(): Set<string> {
  if (!local || Date.now() - local.at > 60_000) {
    const set = new Set<string>();
    for (const list of Object.values(os.networkInterfaces())) for (const i of list ?? []) set.add(i.address);
    local = { at: Date.now(), set };
  }
  return local.set;
}
