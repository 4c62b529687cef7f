import { AppError } from "../../errors";
import type { CompiledContext } from "./compiled-context";
import { parseContextLink } from "./link";
import { ContextLru } from "./lru";
import { type ContextDocumentLoader, resolveContext } from "./resolver";

/** Receives one call per use of a context URL (feeds numberOfHits, ETSI GS CIM 009 §5.13.3.5). */
export interface ContextUsageRecorder {
  recordUse(url: string, tenant?: string): void;
}

/** The compile step (`compileContext` of src/rdf/contexts/compile-context.ts, or a stub in tests). */
export type CompileFn = (contexts: object[]) => CompiledContext;

/** Options of {@link ContextService}. */
export interface ContextServiceOptions {
  loader: ContextDocumentLoader;
  compile: CompileFn;
  /** Told about every URL a request's @context references, on cache hits too. */
  usage?: ContextUsageRecorder;
  /** Entries of the compiled-context LRU; default 1000. */
  maxEntries?: number;
}

interface Entry {
  compiled: CompiledContext;
  urls: readonly string[];
}

/**
 * Resolves and compiles request @contexts (ETSI GS CIM 009 §5.5.7, §6.3.5), caching the compiled
 * result in an LRU keyed by a canonical string of the value: a Link-header URL is its own key, so a
 * repeated URL costs one Map lookup. Concurrent misses of one key share one resolution. Contexts
 * that do not compile are bad request data (400).
 */
export class ContextService {
  private readonly lru: ContextLru<Entry>;
  private readonly pending = new Map<string, Promise<Entry>>();
  private readonly loader: ContextDocumentLoader;
  private readonly compile: CompileFn;
  private usage?: ContextUsageRecorder;
  private defaultCompiled?: CompiledContext;

  constructor(opts: ContextServiceOptions) {
    this.loader = opts.loader;
    this.compile = opts.compile;
    this.usage = opts.usage;
    this.lru = new ContextLru<Entry>(opts.maxEntries ?? 1000);
  }

  /** Sets the usage recorder (the registry, created after the service). */
  setUsageRecorder(usage: ContextUsageRecorder): void {
    this.usage = usage;
  }

  /** Compiles the core-only context once; call at start before {@link default}. */
  async init(): Promise<void> {
    this.defaultCompiled = (await this.build(undefined)).compiled;
  }

  /** The compiled core context (the context of requests that name none, §5.5.7). */
  default(): CompiledContext {
    if (!this.defaultCompiled) throw new Error("ContextService.init() has not run");
    return this.defaultCompiled;
  }

  /**
   * The compiled context of an @context value: a URL, an object, or an array of both. `tenant` is the
   * tenant of the request that uses it (the fetched @contexts are listed to that tenant only).
   * `countUse` false compiles without counting a use (numberOfHits): for the broker's own compilations
   * of stored @contexts (a subscription's, the domain's), which no request sent.
   */
  async compiled(value: unknown, tenant?: string, countUse = true): Promise<CompiledContext> {
    if (value === undefined) return this.default();
    const key = canonicalKey(value);
    const hit = this.lru.get(key);
    if (hit) {
      if (countUse) this.record(hit.urls, tenant);
      return hit.compiled;
    }
    let job = this.pending.get(key);
    if (!job) {
      job = this.build(value).finally(() => this.pending.delete(key));
      this.pending.set(key, job);
    }
    const entry = await job;
    this.lru.set(key, entry);
    if (countUse) this.record(entry.urls, tenant);
    return entry.compiled;
  }

  /** The resolved, flat list of context objects of a value (core last), uncached. */
  async contexts(value: unknown): Promise<object[]> {
    return resolveContext(value, this.loader);
  }

  /** The @context URL of a Link header value (see {@link parseContextLink}); 400 when malformed. */
  parseContextLink(header: string): string | undefined {
    return parseContextLink(header);
  }

  /** Forgets every compiled context (after a @context was deleted or reloaded, §5.13.5). */
  clear(): void {
    this.lru.clear();
  }

  private record(urls: readonly string[], tenant?: string): void {
    if (this.usage) for (const url of urls) this.usage.recordUse(url, tenant);
  }

  private async build(value: unknown): Promise<Entry> {
    const urls: string[] = [];
    const list = await resolveContext(value, this.loader, { onUrl: (u) => urls.push(u) });
    let compiled: CompiledContext;
    try {
      compiled = this.compile(list);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError("BadRequestData", `Invalid @context: ${(err as Error).message}`);
    }
    return { compiled, urls: [...new Set(urls)] };
  }
}

/** A canonical cache key of an @context value: the URL itself, or its JSON text. */
export function canonicalKey(value: unknown): string {
  if (typeof value === "string") return value.startsWith("json:") ? `url:${value}` : value;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === "string")
    return canonicalKey(value[0]);
  return `json:${JSON.stringify(value)}`;
}
