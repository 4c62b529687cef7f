/** Most entities whose first alert is remembered (the oldest are forgotten first). */
const CAPACITY = 50_000;

const ACCIDENT_ID = /urn:ngsi-ld:TrafficAccident:[^"\\\s]+/g;

/**
 * When each accident was first notified to a subscriber: fed by the notification queue's successful
 * deliveries (NGSI-LD subscriptions; alert channels when they deliver through the same queue), read by
 * the accident timeline's `alert_sent` event. Kept in memory since the start of the process.
 */
export class AlertLog {
  private readonly first = new Map<string, { at: number; via: string }>();

  /** Records a delivered notification: every accident id its body names, at `at`, through `via`. */
  recordDelivery(body: string, at: number, via: string): void {
    if (!body.includes("urn:ngsi-ld:TrafficAccident:")) return;
    for (const id of new Set(body.match(ACCIDENT_ID) ?? [])) {
      if (this.first.has(id)) continue;
      this.first.set(id, { at, via });
      if (this.first.size > CAPACITY) this.first.delete(this.first.keys().next().value as string);
    }
  }

  /** The first alert about an accident entity, or undefined. */
  firstAlert(entityId: string): { at: number; via: string } | undefined {
    return this.first.get(entityId);
  }
}
