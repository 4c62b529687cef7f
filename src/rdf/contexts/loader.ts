import fs from "node:fs/promises";
import path from "node:path";
import { DEFAULT_CONTEXT_FETCH_TIMEOUT_MS } from "../../config/config";
import { AppError } from "../../errors";
import { ContextDiskCache } from "./disk-cache";
import { type ContextDocument, parseContextDocument } from "./document";
import { type FetchFn, fetchContextDocument } from "./fetch";
import { projectContextsDir } from "./project-root";
import { ContextUrlMap } from "./url-map";

/** Where a loaded @context came from. */
export type ContextSource = "local" | "project" | "preload" | "disk" | "network";

/**
 * A source consulted before everything else and never cached by the loader: the broker's own
 * hosted @contexts (ETSI GS CIM 009 §5.13.2), so that a URL served by this broker is resolved in
 * process and never fetched over HTTP from itself.
 */
export interface LocalContextSource {
  /** The document for `url`, or undefined when this source does not know it. */
  resolveLocal(url: string): ContextDocument | undefined;
  /** True when `ref`, a root-relative path, is where this source's document is served. */
  isLocalReference?(ref: string): boolean;
}

/** Options of {@link ContextLoader}. */
export interface ContextLoaderOptions {
  /** Data directory; the disk cache lives in `${dataDir}/context-cache/`. */
  dataDir: string;
  /** Folder with the project's `index.json`; default `<project root>/contexts`. */
  projectDir?: string;
  /** Preload folder (same index.json format); config `PRELOAD_CONTEXTS_DIR`. */
  preloadDir?: string;
  /** Fetch timeout, ms; config `CONTEXT_FETCH_TIMEOUT_MS` (default: the setting's). */
  timeoutMs?: number;
  /** Largest remote @context, bytes; default 1 MiB. */
  maxBytes?: number;
  /** HTTP implementation (tests); default node-fetch v2. */
  fetchFn?: FetchFn;
  /**
   * Asked before each download; throws when the URL may not be fetched (the outbound policy). Such a URL
   * is LdContextNotAvailable (503) with the same text as any other failed download.
   */
  checkUrl?: (url: string) => Promise<void>;
  /** Downloaded @contexts kept in memory and on disk (CONTEXT_CACHE_MAX); the least recently fetched go first. */
  maxCached?: number;
}

/** Default size limit of a remote @context, bytes. */
export const DEFAULT_CONTEXT_MAX_BYTES = 1024 * 1024;

/**
 * Dereferences @context URLs (ETSI GS CIM 009 §5.5.7) in this order: local sources (hosted
 * contexts) -> memory -> the project's `contexts/index.json` -> the preload folder -> the disk cache
 * -> the network (node-fetch, timeout, size limit, http/https only). Concurrent loads of one URL
 * share one fetch. Failures throw AppError: LdContextNotAvailable (503) when the document cannot be
 * retrieved, BadRequestData (400) when it is not a JSON object with `@context`.
 */
export class ContextLoader {
  private readonly memory = new Map<string, ContextDocument>();
  private readonly sources = new Map<string, ContextSource>();
  private readonly files = new Map<string, ContextDocument>();
  private readonly inflight = new Map<string, Promise<ContextDocument>>();
  private readonly locals: LocalContextSource[] = [];
  private readonly project: ContextUrlMap;
  private readonly preload: ContextUrlMap;
  private readonly disk: ContextDiskCache;
  private readonly limits: { timeoutMs: number; maxBytes: number };
  private readonly fetchFn?: FetchFn;
  private readonly checkUrl?: (url: string) => Promise<void>;
  private readonly maxCached: number;
  /** URLs held from the disk cache or the network, oldest first (a Map keeps insertion order). */
  private readonly downloaded = new Map<string, true>();

  constructor(opts: ContextLoaderOptions) {
    this.project = new ContextUrlMap(opts.projectDir ?? projectContextsDir());
    this.preload = new ContextUrlMap(opts.preloadDir ?? path.join(opts.dataDir, "no-preload-dir"));
    this.disk = new ContextDiskCache(path.join(opts.dataDir, "context-cache"), opts.maxCached);
    this.limits = {
      timeoutMs: opts.timeoutMs ?? DEFAULT_CONTEXT_FETCH_TIMEOUT_MS,
      maxBytes: opts.maxBytes ?? DEFAULT_CONTEXT_MAX_BYTES,
    };
    this.fetchFn = opts.fetchFn;
    this.checkUrl = opts.checkUrl;
    this.maxCached = opts.maxCached ?? Infinity;
  }

  /** Adds a source consulted before all others (see {@link LocalContextSource}). */
  addLocalSource(source: LocalContextSource): void {
    this.locals.push(source);
  }

  /** True when a local source serves a document at the root-relative path `ref`. */
  isLocalReference(ref: string): boolean {
    return this.locals.some((l) => l.isLocalReference?.(ref) === true);
  }

  /** The parsed document (`{"@context": ...}`) behind `url`. */
  async load(url: string): Promise<ContextDocument> {
    return (await this.loadWithSource(url)).document;
  }

  /** Like {@link load}, also telling where the document came from. */
  async loadWithSource(url: string): Promise<{ document: ContextDocument; source: ContextSource }> {
    for (const local of this.locals) {
      const doc = local.resolveLocal(url);
      if (doc) return { document: doc, source: "local" };
    }
    const cached = this.memory.get(url);
    if (cached) return { document: cached, source: this.sources.get(url) ?? "network" };
    let pending = this.inflight.get(url);
    if (!pending) {
      pending = this.resolve(url, false).finally(() => this.inflight.delete(url));
      this.inflight.set(url, pending);
    }
    const document = await pending;
    return { document, source: this.sources.get(url) ?? "network" };
  }

  /**
   * Loads `url` again, bypassing memory and disk cache (ETSI GS CIM 009 §5.13.5 reload). On
   * failure the previous copy stays in place and the error is thrown.
   */
  async reload(url: string): Promise<ContextDocument> {
    return this.resolve(url, true);
  }

  /** Forgets `url` in memory and on disk (§5.13.5 delete of a Cached @context). */
  async evict(url: string): Promise<void> {
    this.downloaded.delete(url);
    this.memory.delete(url);
    this.sources.delete(url);
    await this.disk.delete(url);
  }

  /** True while a downloaded `url` is held (it may have left the bounded cache since). */
  holds(url: string): boolean {
    return this.memory.has(url);
  }

  /** True when `url` resolves from the project contexts or the preload folder (no network). */
  isMappedLocally(url: string): boolean {
    return this.project.lookup(url) !== undefined || this.preload.lookup(url) !== undefined;
  }

  private remember(url: string, doc: ContextDocument, source: ContextSource): ContextDocument {
    this.memory.set(url, doc);
    this.sources.set(url, source);
    if (source === "disk" || source === "network") {
      this.downloaded.delete(url);
      this.downloaded.set(url, true);
      for (const old of this.downloaded.keys()) {
        if (this.downloaded.size <= this.maxCached) break;
        this.downloaded.delete(old);
        void this.evict(old).catch(() => undefined);
      }
    }
    return doc;
  }

  private async resolve(url: string, fresh: boolean): Promise<ContextDocument> {
    const projectFile = this.project.lookup(url);
    if (projectFile) return this.remember(url, await this.readFile(projectFile, url, fresh), "project");
    const preloadFile = this.preload.lookup(url);
    if (preloadFile) return this.remember(url, await this.readFile(preloadFile, url, fresh), "preload");
    if (!fresh) {
      const onDisk = await this.disk.get(url);
      if (onDisk) return this.remember(url, onDisk, "disk");
    }
    if (this.checkUrl) {
      await this.checkUrl(url).catch(() => {
        throw new AppError("LdContextNotAvailable", `The @context ${url} could not be retrieved`, { url });
      });
    }
    const doc = await fetchContextDocument(url, this.limits, this.fetchFn);
    await this.disk.put(url, doc).catch(() => undefined);
    return this.remember(url, doc, "network");
  }

  /** Reads a mapped file once; every URL mapped to the same file shares one object. */
  private async readFile(file: string, url: string, fresh: boolean): Promise<ContextDocument> {
    const known = this.files.get(file);
    if (known && !fresh) return known;
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch {
      throw new AppError("LdContextNotAvailable", `The local copy of ${url} (${file}) cannot be read`, {
        url,
      });
    }
    const doc = parseContextDocument(text, url);
    this.files.set(file, doc);
    return doc;
  }
}
