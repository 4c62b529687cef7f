import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local notification receiver for the subscription bench: answers every POST with 204 at once and
 * notes, per (subscriptionId, notified value), the time (performance.now) it first arrived. The value is
 * `data[0][attr]` of the notification (keyValues format), the number the bench wrote.
 */
export class Webhook {
  /** `${subscriptionId} ${value}` -> first receipt time, ms. */
  readonly firstAt = new Map<string, number>();
  /** Notifications received, duplicates included. */
  count = 0;
  lastAt = 0;
  private server?: http.Server;

  constructor(private readonly attr: string) {}

  async start(): Promise<string> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (d: Buffer) => chunks.push(d));
      req.on("end", () => {
        const at = performance.now();
        this.count++;
        this.lastAt = at;
        const n = JSON.parse(Buffer.concat(chunks).toString()) as {
          subscriptionId: string;
          data: Record<string, unknown>[];
        };
        for (const d of n.data) {
          const key = `${n.subscriptionId} ${String(d[this.attr])}`;
          if (!this.firstAt.has(key)) this.firstAt.set(key, at);
        }
        res.statusCode = 204;
        res.end();
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
  }

  /** Waits until `ok()` holds or `ms` passed; returns whether it holds. */
  async until(ok: () => boolean, ms: number): Promise<boolean> {
    const end = performance.now() + ms;
    while (!ok() && performance.now() < end) await new Promise((r) => setTimeout(r, 10));
    return ok();
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }
}
