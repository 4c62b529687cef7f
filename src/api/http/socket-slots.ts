import { AppError } from "../../errors";
import type { Principal } from "./request-context";

/**
 * Open sockets per principal on the push faces (`/ws` and graphql-ws together), at most `max` each
 * (WS_MAX_SOCKETS_PER_PRINCIPAL): one credential cannot hold any number of sockets.
 */
export class SocketSlots {
  private readonly open = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Takes a slot of `p`; the returned function gives it back (once). 429 (close 4429) when all are taken. */
  take(p: Principal): () => void {
    const n = this.open.get(p.id) ?? 0;
    if (n >= this.max) {
      throw new AppError(
        "TooManyRequests",
        `Too many open sockets for this ${p.kind} (at most ${this.max})`,
        {
          retry_after: 1,
        },
      );
    }
    this.open.set(p.id, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(p.id) ?? 1) - 1;
      if (left <= 0) this.open.delete(p.id);
      else this.open.set(p.id, left);
    };
  }

  /** Sockets `p` holds now. */
  count(id: string): number {
    return this.open.get(id) ?? 0;
  }
}
