import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { TemporalIndex } from "../temporal/temporal-index";
import type { HistoryChange } from "../temporal/temporal-service";
import { pagesWithVersions, versionsIn } from "./entity-versions";
import { pageTriples, streamTriples, viewTriples, type LdesIris } from "./ldes-documents";
import type { LdesWindow } from "./ldes-window";
import { versionMember } from "./version-member";

/** A page of the stream as N-Triples, and whether it is closed (will never change). */
export interface LdesPage {
  triples: string;
  closed: boolean;
}

/** Records that remove or change instances already in the history (the temporal API's edits). */
const EDITS = new Set<HistoryChange["op"]>(["delEntity", "delAttr", "delInst", "modInst"]);

/**
 * The Linked Data Event Stream of each tenant (docs/ldes.md): one `ldes:EventStream` of entity versions,
 * read from the temporal history, fragmented by {@link LdesWindow} into time pages. The pages that hold
 * members are listed once per change of the tenant's history; pages are rendered on request (the face
 * keeps closed ones).
 */
export class LdesFeed {
  private readonly pageLists = new Map<string, { first: number; pages: number[] }>();
  private readonly editListeners: ((tenant: string) => void)[] = [];

  constructor(
    private readonly index: TemporalIndex,
    private readonly ctx: CompiledContext,
    readonly window: LdesWindow,
  ) {}

  /** The temporal service's change hook: drops the page lists it makes stale. */
  changed(c?: HistoryChange): void {
    if (!c) return this.pageLists.clear();
    this.pageLists.delete(c.tenant);
    if (EDITS.has(c.op)) for (const l of this.editListeners) l(c.tenant);
  }

  /** Calls `l` when the temporal API changed or removed instances of `tenant` (closed pages may differ). */
  onEdit(l: (tenant: string) => void): void {
    this.editListeners.push(l);
  }

  /** The event stream's own description. */
  stream(iris: LdesIris): string {
    return streamTriples(iris);
  }

  /** The view's root node: the stream, the view description and a relation pair per page with members. */
  view(tenant: string, iris: LdesIris, now: number): string {
    const first = this.window.firstPage(now);
    let list = this.pageLists.get(tenant);
    if (!list || list.first !== first) {
      const pages = pagesWithVersions(
        this.index,
        tenant,
        first,
        (t) => this.window.pageOf(t),
        (p) => this.window.minTime(p),
      );
      this.pageLists.set(tenant, (list = { first, pages }));
    }
    return viewTriples(iris, list.pages, this.window.pageMs, this.window.retention());
  }

  /**
   * Page `start` of the stream, or undefined when no such page is served (not a page start, in the future,
   * or past the retention window).
   */
  page(tenant: string, iris: LdesIris, start: number, now: number): LdesPage | undefined {
    const w = this.window;
    if (w.pageOf(start) !== start || start > w.pageOf(now) || start < w.firstPage(now)) return undefined;
    const closed = w.closed(start, now);
    const versions = versionsIn(this.index, tenant, {
      from: start,
      to: start + w.pageMs,
      minTime: w.minTime(start),
    });
    const members = versions.map((v, n) => versionMember(this.index, v, this.ctx, n));
    return { triples: pageTriples(iris, start, members), closed };
  }
}
