import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

/**
 * A process of push clients for bench/live.ts, started with `fork`: it opens its share of the
 * clients, subscribed to accidents, and records when each receives an alert, in epoch ms
 * (`performance.timeOrigin + performance.now()`, comparable with the bench process's clock). A client
 * does as little as it can per message (no JSON parsing on `/ws`), so that the times are the
 * service's and the kernel's, not the clients'.
 *
 * Messages from the bench: `{cmd:"open", url, kind:"ws"|"graphql", count}` -> `{opened}`;
 * `{cmd:"collect"}` -> `{arrivals}` (the receipts since the previous collect); `{cmd:"close"}`.
 */

type Command =
  { cmd: "open"; url: string; kind: "ws" | "graphql"; count: number } | { cmd: "collect" } | { cmd: "close" };

const now = (): number => performance.timeOrigin + performance.now();
let arrivals: number[] = [];
const closers: (() => void)[] = [];
const BATCH = 250;

function openWs(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws`, { skipUTF8Validation: true });
    closers.push(() => ws.terminate());
    let subscribed = false;
    ws.on("error", reject);
    ws.on("open", () => ws.send('{"type":"subscribe","channels":["accidents"]}'));
    ws.on("message", (d: Buffer) => {
      if (subscribed) {
        if (d.includes('"type":"alert"')) arrivals.push(now());
      } else if (d.includes('"type":"subscribed"')) {
        subscribed = true;
        resolve();
      }
    });
  });
}

function openGraphql(url: string): Promise<void> {
  const client: Client = createClient({
    url: `${url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
  });
  closers.push(() => void client.dispose());
  return new Promise((resolve, reject) => {
    client.on("connected", () => resolve());
    client.on("error", reject);
    client.subscribe(
      { query: "subscription { accidentAlerts { id severity location { lat lon } } }" },
      { next: () => void arrivals.push(now()), error: () => undefined, complete: () => undefined },
    );
  });
}

async function open(c: Extract<Command, { cmd: "open" }>): Promise<void> {
  const one = c.kind === "ws" ? openWs : openGraphql;
  for (let i = 0; i < c.count; i += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, c.count - i) }, () => one(c.url)));
  }
  // graphql-ws acknowledges the connection, not the subscription: let the subscribes arrive
  if (c.kind === "graphql") await new Promise((r) => setTimeout(r, 1000));
}

process.on("message", (c: Command) => {
  const reply = (m: object) => process.send?.(m);
  if (c.cmd === "open") {
    open(c).then(
      () => reply({ opened: c.count }),
      (e: unknown) => reply({ error: String(e) }),
    );
  } else if (c.cmd === "collect") {
    reply({ arrivals });
    arrivals = [];
  } else {
    for (const close of closers) close();
    setTimeout(() => process.exit(0), 500);
  }
});
