/**
 * A version of each entity's temporal history, counted up by every change of it (the temporal
 * service's change hook), and of all of them at once when retention drops instances. An answer
 * computed from an entity's history can be kept as long as {@link HistoryVersions.of} is unchanged.
 */
export class HistoryVersions {
  private epoch = 0;
  private readonly byEntity = new Map<string, number>();

  /** The history of `entityId` changed; of every entity when no id is given. */
  changed(entityId?: string): void {
    if (entityId === undefined) this.epoch++;
    else this.byEntity.set(entityId, (this.byEntity.get(entityId) ?? 0) + 1);
  }

  /** The current version of `entityId`'s history (opaque; equal versions mean an unchanged history). */
  of(entityId: string): string {
    return `${this.epoch}.${this.byEntity.get(entityId) ?? 0}`;
  }
}
