import { session } from "./session";

/**
 * Keeps a view current: calls `load` now and again every `everyMs()` (one call at a time), hands each
 * answer to `apply` and each failure to `fail`. `now()` of the answer asks at once (a push said that
 * something changed). `stop()` ends it.
 */
export function poll<T>(
  load: () => Promise<T>,
  apply: (value: T) => void,
  fail: (e: Error) => void,
  everyMs: number | (() => number),
): { now(): void; stop(): void } {
  let stopped = false;
  let running = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const interval = typeof everyMs === "number" ? () => everyMs : everyMs;
  const tick = async () => {
    clearTimeout(timer);
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const v = await load();
      if (!stopped) apply(v);
    } catch (e) {
      if (!stopped) fail(e as Error);
    }
    running = false;
    if (stopped) return;
    if (again) {
      again = false;
      void tick();
    } else timer = setTimeout(tick, interval());
  };
  void tick();
  return {
    now: () => void (stopped || tick()),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** A message of the `/ws` face (docs/graphql-and-websocket.md): `update` on traffic, `alert` on accidents. */
export interface LiveMessage {
  channel: "traffic" | "accidents" | "weather";
  type: string;
  data: Record<string, unknown>;
}

/**
 * The `/ws` push (docs/graphql-and-websocket.md) with the session's token: subscribes to the accidents and traffic
 * channels and hands every message to `onMessage`. Reconnects after a drop (1 s, doubling up to 30 s);
 * `connected()` says whether pushes arrive now, so that polling can slow down meanwhile.
 */
export class LiveSocket {
  private ws?: WebSocket;
  private delay = 1000;
  private closed = false;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly onMessage: (m: LiveMessage) => void,
    private readonly onState: (connected: boolean) => void,
  ) {}

  start(): void {
    const token = session.token();
    const url = new URL("/ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    if (token) url.searchParams.set("token", token);
    const ws = (this.ws = new WebSocket(url));
    ws.onopen = () => {
      this.delay = 1000;
      ws.send(JSON.stringify({ type: "subscribe", id: "dashboard", channels: ["accidents", "traffic"] }));
      this.onState(true);
    };
    ws.onmessage = (e) => {
      try {
        const m = JSON.parse(String(e.data)) as LiveMessage;
        if (m.channel) this.onMessage(m);
      } catch {
        // a frame that is not JSON is not ours to show
      }
    };
    ws.onclose = (e) => {
      this.onState(false);
      if (this.closed) return;
      if (e.code === 4401) return session.expired();
      this.timer = setTimeout(() => this.start(), this.delay);
      this.delay = Math.min(30_000, this.delay * 2);
    };
  }

  connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  stop(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }
}
