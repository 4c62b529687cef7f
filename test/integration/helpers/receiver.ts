import http from "node:http";
import type { AddressInfo } from "node:net";

/** One notification as the receiver got it. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: {
    id: string;
    type: string;
    subscriptionId: string;
    notifiedAt: string;
    data: Record<string, unknown>[];
    "@context"?: unknown;
  };
}

/**
 * A real HTTP notification receiver for tests: collects every POSTed notification; can be stopped
 * (connections refused) and started again on the same port.
 */
export class Receiver {
  readonly received: Received[] = [];
  private server?: http.Server;
  port = 0;
  /** The status answered; a failure (>= 300) is not counted as received. */
  status = 204;

  /** @param delayMs how long each answer is held back (a slow receiver builds a backlog). */
  constructor(private readonly delayMs = 0) {}

  /** Starts listening (on the same port as before when restarted). */
  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      let text = "";
      req.on("data", (d: Buffer) => (text += d.toString()));
      req.on("end", () => {
        if (this.status < 300)
          this.received.push({ headers: req.headers, body: JSON.parse(text) as Received["body"] });
        res.statusCode = this.status;
        setTimeout(() => res.end(), this.delayMs);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops listening and drops open connections, so deliveries fail until start() again. */
  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  /** The endpoint URI of this receiver. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/notify`;
  }

  /** Waits until `ok()` holds (polling every 20 ms) or `ms` passed; returns whether it holds. */
  async until(ok: () => boolean, ms = 10_000): Promise<boolean> {
    const end = Date.now() + ms;
    while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return ok();
  }
}
