import type { Context, Next } from "koa";
import { AppError } from "../../errors";

/** Seconds a client is told to wait (`Retry-After`) while the service drains. */
const RETRY_AFTER_S = 5;

/**
 * Refuses new requests while the service shuts down (docs/operations.md "Restart and upgrade"): 503 with
 * `Retry-After`, so a load balancer moves them to another instance; requests already in flight go on. The
 * probes under `/health` still answer (`/health/ready` then says 503 itself).
 */
export function drainGate(draining: () => boolean) {
  return (ctx: Context, next: Next): Promise<void> => {
    if (!draining() || ctx.path.startsWith("/health")) return next();
    ctx.set("Connection", "close");
    return Promise.reject(
      new AppError("ServiceUnavailable", "The service is shutting down; retry on another instance", {
        retry_after: RETRY_AFTER_S,
      }),
    );
  };
}
