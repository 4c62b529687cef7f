/**
 * The token bucket of one connection's client messages: `perSecond` on average, bursts of twice that.
 * Past it messages are dropped, and the client is told at most once a second.
 */
export class MessageRate {
  private tokens: number;
  private refilled = Date.now();
  private warnedAt = 0;

  constructor(private readonly perSecond: number) {
    this.tokens = 2 * perSecond;
  }

  /** "allow" to take the message, "drop" to drop it, "warn" to drop it and tell the client. */
  take(): "allow" | "drop" | "warn" {
    const now = Date.now();
    this.tokens = Math.min(2 * this.perSecond, this.tokens + ((now - this.refilled) / 1000) * this.perSecond);
    this.refilled = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return "allow";
    }
    if (now - this.warnedAt < 1000) return "drop";
    this.warnedAt = now;
    return "warn";
  }
}
