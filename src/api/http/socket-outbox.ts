import type WebSocket from "ws";
import { OutboundQueue } from "./outbound-queue";

/** Close code of a socket whose reader fell too far behind (docs/graphql-and-websocket.md). */
export const CLOSE_SLOW_CONSUMER = 4008;
/** Bytes a socket may hold unsent before messages wait in its bounded queue instead. */
const HIGH_WATER_BYTES = 64 * 1024;

/**
 * The sending side of one push socket (`/ws` or graphql-ws): a message goes straight to the socket
 * while less than 64 KiB wait unsent there; past that it waits in a bounded queue (newest wins per
 * coalescing key), and a full queue closes the socket with 4008. A message is a text frame given as
 * a Buffer, so that one rendered Buffer goes unchanged to every socket it is for (no copy, no
 * re-encoding per socket), or as a string.
 */
export class SocketOutbox {
  private readonly queue: OutboundQueue<Buffer | string>;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly maxWaiting: number,
    /** Told when the queue overflows and the socket is closed (a metric). */
    private readonly onDrop?: () => void,
  ) {
    this.queue = new OutboundQueue(maxWaiting);
    ws.once("close", () => (this.closed = true));
  }

  /** Sends `data` as a text frame, or queues it; closes the socket with 4008 when the queue is full. */
  send(data: Buffer | string, coalesceKey?: string): void {
    if (this.closed) return;
    if (this.queue.size === 0 && this.ws.bufferedAmount < HIGH_WATER_BYTES) {
      this.ws.send(data, TEXT, this.onSent);
      return;
    }
    if (!this.queue.push(data, coalesceKey)) {
      this.onDrop?.();
      this.close(CLOSE_SLOW_CONSUMER, `Too slow: ${this.maxWaiting} messages unread`);
    }
  }

  /** Stops sending and closes the socket (code and reason are shown to the client). */
  close(code: number, reason: string): void {
    this.closed = true;
    this.ws.close(code, reason);
  }

  /** A write reached the kernel: the queue moves on while the socket's buffer is below the mark. */
  private readonly onSent = (err?: Error): void => {
    if (err || this.closed) return;
    while (this.queue.size > 0 && this.ws.bufferedAmount < HIGH_WATER_BYTES) {
      this.ws.send(this.queue.shift() as Buffer | string, TEXT, this.onSent);
    }
  };
}

/** ws sends a Buffer as a binary frame unless told otherwise; every push message is JSON text. */
const TEXT = { binary: false } as const;
