import type { CompiledSubscription } from "./compile-subscription";

interface TenantSubs {
  byId: Map<string, CompiledSubscription>;
  byType: Map<string, Set<CompiledSubscription>>;
  anyType: Set<CompiledSubscription>;
}

/**
 * The subscriptions of every tenant, indexed by the expanded entity types they select. A write to an entity looks at the
 * subscriptions of its types and those that select no single type (watchedAttributes only, type
 * expressions), never at all of them.
 */
export class SubscriptionIndex {
  private readonly tenants = new Map<string, TenantSubs>();

  private tenant(name: string): TenantSubs {
    let t = this.tenants.get(name);
    if (!t) this.tenants.set(name, (t = { byId: new Map(), byType: new Map(), anyType: new Set() }));
    return t;
  }

  /** Adds or replaces a subscription. */
  put(cs: CompiledSubscription): void {
    const t = this.tenant(cs.record.tenant);
    this.remove(cs.record.tenant, cs.record.sub.id);
    t.byId.set(cs.record.sub.id, cs);
    if (!cs.typeKeys) {
      t.anyType.add(cs);
      return;
    }
    for (const k of cs.typeKeys) {
      let set = t.byType.get(k);
      if (!set) t.byType.set(k, (set = new Set()));
      set.add(cs);
    }
  }

  /** Removes a subscription; returns it if it existed. */
  remove(tenant: string, id: string): CompiledSubscription | undefined {
    const t = this.tenants.get(tenant);
    const cs = t?.byId.get(id);
    if (!t || !cs) return undefined;
    t.byId.delete(id);
    t.anyType.delete(cs);
    for (const k of cs.typeKeys ?? []) t.byType.get(k)?.delete(cs);
    return cs;
  }

  /** One subscription. */
  get(tenant: string, id: string): CompiledSubscription | undefined {
    return this.tenants.get(tenant)?.byId.get(id);
  }

  /** The subscriptions of a tenant, in creation order. */
  list(tenant: string): CompiledSubscription[] {
    return [...(this.tenants.get(tenant)?.byId.values() ?? [])];
  }

  /** Every subscription of every tenant. */
  *all(): Generator<CompiledSubscription> {
    for (const t of this.tenants.values()) yield* t.byId.values();
  }

  /** The subscriptions that may match an entity with these expanded types (a superset; each once). */
  candidates(tenant: string, types: readonly string[]): Set<CompiledSubscription> {
    const t = this.tenants.get(tenant);
    const out = new Set<CompiledSubscription>();
    if (!t) return out;
    for (const cs of t.anyType) out.add(cs);
    for (const type of types) for (const cs of t.byType.get(type) ?? []) out.add(cs);
    return out;
  }

  /** Number of subscriptions over all tenants. */
  size(): number {
    let n = 0;
    for (const t of this.tenants.values()) n += t.byId.size;
    return n;
  }
}
