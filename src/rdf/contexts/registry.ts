import { randomUUID } from "node:crypto";
import path from "node:path";
import { AppError, notFound } from "../../errors";
import { CORE_CONTEXT_URL, isCoreContextUrl } from "./core";
import { urlDigest } from "./disk-cache";
import type { ContextDocument } from "./document";
import {
  type ContextInfo,
  type ContextKind,
  type StoredContext,
  type Usage,
  checkAddContextBody,
} from "./info";
import { checkStorableContext } from "./info";
import type { ContextLoader, LocalContextSource } from "./loader";
import { ContextRegistryStore } from "./registry-store";
import type { ContextUsageRecorder } from "./service";

/** Options of {@link ContextRegistry}. */
export interface ContextRegistryOptions {
  dataDir: string;
  loader: ContextLoader;
  /** Path prefix of the NGSI-LD API; default "/ngsi-ld/v1". */
  apiPrefix?: string;
  now?: () => number;
}

interface CachedEntry {
  url: string;
  /** Tenants whose requests used it: a fetched URL (maybe with a token in its query) is listed to them only. */
  tenants: Set<string>;
  localId: string;
  createdAt: number;
  usage: Usage;
}

interface Found {
  kind: ContextKind;
  hosted?: StoredContext;
  cached?: CachedEntry;
}

const HOSTED_TAIL = /\/jsonldContexts\/([A-Za-z0-9-]{1,64})$/;
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The broker's @context storage behind /ngsi-ld/v1/jsonldContexts (ETSI GS CIM 009 v1.8 §5.13):
 * Hosted contexts added by clients and ImplicitlyCreated ones made for subscriptions (persisted,
 * per tenant, §5.5.10), and Cached copies of every remote @context the broker has used (global,
 * the core context among them). It is also a {@link LocalContextSource} of the loader, so that a
 * URL ending in `/jsonldContexts/<localId>` resolves in process, and the usage recorder that
 * counts numberOfHits.
 */
export class ContextRegistry implements LocalContextSource, ContextUsageRecorder {
  private readonly hosted = new Map<string, StoredContext>();
  private readonly hostedUsage = new Map<string, Usage>();
  private readonly cached = new Map<string, CachedEntry>();
  private readonly listeners: Array<() => void> = [];
  private readonly store: ContextRegistryStore;
  private readonly loader: ContextLoader;
  private readonly now: () => number;
  /** Path prefix of the NGSI-LD API, e.g. "/ngsi-ld/v1". */
  readonly apiPrefix: string;

  constructor(opts: ContextRegistryOptions) {
    this.store = new ContextRegistryStore(path.join(opts.dataDir, "hosted-contexts"));
    this.loader = opts.loader;
    this.apiPrefix = opts.apiPrefix ?? "/ngsi-ld/v1";
    this.now = opts.now ?? Date.now;
    opts.loader.addLocalSource(this);
  }

  /** Loads persisted entries and registers the core context; returns names of skipped files. */
  async init(): Promise<string[]> {
    const { entries, skipped } = await this.store.loadAll();
    for (const e of entries) this.hosted.set(e.localId, e);
    await this.loader.load(CORE_CONTEXT_URL);
    this.cachedEntry(CORE_CONTEXT_URL);
    return skipped;
  }

  /** Calls `fn` whenever a stored @context is deleted or reloaded (clear compiled caches). */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** The path (under the server origin) where a hosted @context is served. */
  pathOf(localId: string): string {
    return `${this.apiPrefix}/jsonldContexts/${localId}`;
  }

  /**
   * Add @context (§5.13.2): stores a Hosted @context; returns its localId and Location path. The URLs
   * it names are fetched first and kept as Cached @contexts. One that cannot be fetched now does not
   * fail the request (the @context is stored as the client gave it, ETSI test 050_01_02); it is fetched
   * again when a request uses the Hosted @context, which fails then with LdContextNotAvailable.
   */
  async addHosted(tenant: string, body: unknown): Promise<{ localId: string; location: string }> {
    const document = checkAddContextBody(body);
    await this.cacheReferences(tenant, document["@context"]);
    return this.addStored(tenant, "Hosted", document);
  }

  /**
   * Stores an ImplicitlyCreated @context (§5.13.1): the array or object @context a subscription was
   * made with, stored so that its `jsonldContext` can name it by URL.
   */
  async addImplicit(tenant: string, context: unknown): Promise<{ localId: string; location: string }> {
    checkStorableContext(context);
    return this.addStored(tenant, "ImplicitlyCreated", { "@context": context });
  }

  /** True when `url` names an ImplicitlyCreated @context of `tenant`. */
  isImplicit(tenant: string, url: string): boolean {
    const e = this.hostedAt(url);
    return e?.kind === "ImplicitlyCreated" && e.tenant === tenant;
  }

  /** Deletes the ImplicitlyCreated @context of `tenant` at `url` (when its subscription goes); else nothing. */
  async removeImplicit(tenant: string, url: string): Promise<void> {
    const e = this.hostedAt(url);
    if (e?.kind !== "ImplicitlyCreated" || e.tenant !== tenant) return;
    await this.drop(e);
    this.changed();
  }

  private async addStored(tenant: string, kind: StoredContext["kind"], document: ContextDocument) {
    const entry: StoredContext = {
      localId: randomUUID(),
      kind,
      tenant,
      createdAt: iso(this.now()),
      document,
    };
    await this.store.save(entry);
    this.hosted.set(entry.localId, entry);
    return { localId: entry.localId, location: this.pathOf(entry.localId) };
  }

  /** List @contexts (§5.13.3): URLs, or ContextInfo objects with `details`. */
  list(
    tenant: string,
    opts: { kind?: ContextKind; details: boolean; origin: string },
  ): string[] | ContextInfo[] {
    const infos: ContextInfo[] = [];
    for (const e of this.hosted.values())
      if (e.tenant === tenant) infos.push(this.hostedInfo(e, opts.origin));
    for (const c of this.cached.values()) if (this.visible(c, tenant)) infos.push(this.cachedInfo(c));
    const selected = infos.filter((i) => opts.kind === undefined || i.kind === opts.kind);
    return opts.details ? selected : selected.map((i) => i.URL);
  }

  /**
   * Serve @context (§5.13.4): the stored document, or its ContextInfo with `details`. The content
   * of a Cached @context is not served (§5.13.4: only Hosted and ImplicitlyCreated) ->
   * OperationNotSupported. Serving a Cached or ImplicitlyCreated entry counts as a use of it
   * after the answer is built.
   */
  serve(tenant: string, contextId: string, opts: { details: boolean; origin: string }): object {
    const f = this.find(tenant, contextId);
    if (!f) throw notFound(`No @context ${contextId}`, { contextId });
    const answer = f.hosted
      ? opts.details
        ? this.hostedInfo(f.hosted, opts.origin)
        : f.hosted.document
      : opts.details
        ? this.cachedInfo(f.cached as CachedEntry)
        : undefined;
    if (answer === undefined) {
      throw new AppError(
        "OperationNotSupported",
        "The content of a Cached @context is not served; use details=true",
      );
    }
    if (f.cached) this.touch(f.cached.usage);
    else if (f.kind === "ImplicitlyCreated" && f.hosted) this.touch(this.usageOf(f.hosted.localId));
    return answer;
  }

  /**
   * Delete and Reload @context (§5.13.5). `reload` applies to Cached @contexts only (else
   * BadRequestData): the copy is fetched again and, on failure, kept while LdContextNotAvailable is
   * thrown. Without reload the entry is removed; the core context cannot be (BadRequestData).
   */
  async remove(tenant: string, contextId: string, opts: { reload: boolean }): Promise<void> {
    const f = this.find(tenant, contextId);
    if (opts.reload) {
      if (!f?.cached)
        throw new AppError("BadRequestData", "reload=true applies only to Cached @contexts", { contextId });
      await this.loader.reload(f.cached.url);
      f.cached.createdAt = this.now();
      f.cached.usage = { hits: 0 };
      return this.changed();
    }
    if (!f) throw notFound(`No @context ${contextId}`, { contextId });
    if (f.cached) {
      if (f.cached.url === CORE_CONTEXT_URL)
        throw new AppError("BadRequestData", "The core @context cannot be deleted");
      this.cached.delete(f.cached.url);
      await this.loader.evict(f.cached.url);
    } else if (f.hosted) {
      await this.drop(f.hosted);
    }
    this.changed();
  }

  /** {@link LocalContextSource}: a hosted document by its URL (any host, any tenant). */
  resolveLocal(url: string): ContextDocument | undefined {
    return this.hostedAt(url)?.document;
  }

  /** {@link LocalContextSource}: true for the exact path where a stored @context is served. */
  isLocalReference(ref: string): boolean {
    const m = HOSTED_TAIL.exec(ref);
    return m !== null && ref === this.pathOf(m[1]) && this.hosted.has(m[1]);
  }

  /** {@link ContextUsageRecorder}: one use of `url` by a request of `tenant`. */
  recordUse(url: string, tenant?: string): void {
    const m = HOSTED_TAIL.exec(url.split(/[?#]/)[0]);
    if (m && this.hosted.has(m[1])) return this.touch(this.usageOf(m[1]));
    const c = this.cachedEntry(isCoreContextUrl(url) ? CORE_CONTEXT_URL : url);
    if (tenant !== undefined) c.tenants.add(tenant);
    this.touch(c.usage);
  }

  /**
   * A Cached @context is shown to a tenant that used it; the core context and those the broker maps to
   * local files, to every tenant. One that left the bounded download cache is forgotten.
   */
  private visible(c: CachedEntry, tenant: string): boolean {
    if (c.url === CORE_CONTEXT_URL || this.loader.isMappedLocally(c.url)) return true;
    if (!this.loader.holds(c.url)) {
      this.cached.delete(c.url);
      return false;
    }
    return c.tenants.has(tenant);
  }

  /** The stored entry a URL (or path) ending in `/jsonldContexts/<localId>` names. */
  private hostedAt(url: string): StoredContext | undefined {
    const m = HOSTED_TAIL.exec(url.split(/[?#]/)[0]);
    return m ? this.hosted.get(m[1]) : undefined;
  }

  private async drop(e: StoredContext): Promise<void> {
    await this.store.remove(e.localId);
    this.hosted.delete(e.localId);
    this.hostedUsage.delete(e.localId);
  }

  /** Fetches the URLs an added @context names (not the core one, not this broker's own) as Cached; failures are left out. */
  private async cacheReferences(tenant: string, value: unknown): Promise<void> {
    const urls = (Array.isArray(value) ? value : [value]).filter(
      (v): v is string => typeof v === "string" && !isCoreContextUrl(v) && !this.hostedAt(v),
    );
    const loads = await Promise.allSettled(urls.map((url) => this.loader.load(url)));
    urls.forEach((url, i) => {
      if (loads[i].status === "fulfilled") this.cachedEntry(url).tenants.add(tenant);
    });
  }

  private find(tenant: string, id: string): Found | undefined {
    const m = HOSTED_TAIL.exec(id);
    const hosted = this.hosted.get(id) ?? (m ? this.hosted.get(m[1]) : undefined);
    if (hosted && hosted.tenant === tenant) return { kind: hosted.kind, hosted };
    const url = isCoreContextUrl(id) ? CORE_CONTEXT_URL : id;
    const cached = this.cached.get(url) ?? [...this.cached.values()].find((c) => c.localId === id);
    return cached && this.visible(cached, tenant) ? { kind: "Cached", cached } : undefined;
  }

  private cachedEntry(url: string): CachedEntry {
    let c = this.cached.get(url);
    if (!c) {
      c = {
        url,
        tenants: new Set(),
        localId: urlDigest(url).slice(0, 24),
        createdAt: this.now(),
        usage: { hits: 0 },
      };
      this.cached.set(url, c);
    }
    return c;
  }

  private usageOf(localId: string): Usage {
    let u = this.hostedUsage.get(localId);
    if (!u) this.hostedUsage.set(localId, (u = { hits: 0 }));
    return u;
  }

  private touch(u: Usage): void {
    u.hits++;
    u.lastUsage = this.now();
  }

  private hostedInfo(e: StoredContext, origin: string): ContextInfo {
    const u = this.usageOf(e.localId);
    const info: ContextInfo = {
      URL: `${origin}${this.pathOf(e.localId)}`,
      localId: e.localId,
      kind: e.kind,
      createdAt: e.createdAt,
      numberOfHits: u.hits,
    };
    if (u.lastUsage !== undefined) info.lastUsage = iso(u.lastUsage);
    return info;
  }

  private cachedInfo(c: CachedEntry): ContextInfo {
    const info: ContextInfo = {
      URL: c.url,
      localId: c.localId,
      kind: "Cached",
      createdAt: iso(c.createdAt),
      numberOfHits: c.usage.hits,
    };
    if (c.usage.lastUsage !== undefined) info.lastUsage = iso(c.usage.lastUsage);
    info.extraInfo = { origin: this.loader.isMappedLocally(c.url) ? "local copy" : "downloaded" };
    return info;
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}
