import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { TemporalIndex } from "../temporal/temporal-index";
import type { HistoryChange } from "../temporal/temporal-service";
import { pagesWithVersions, versionsIn } from "./entity-versions";
import { pageHead, streamTriples, viewTriples, type LdesIris } from "./ldes-documents";
import type { LdesWindow } from "./ldes-window";
import { memberTriples, versionEntity } from "./version-member";
import { yieldToLoop } from "./yield-to-loop";

/**
 * A part of a page as N-Triples, in pieces that concatenate to the document (the head, then the members
 * a few at a time: no two pieces share a subject), and whether it is closed (will never change).
 */
export interface LdesPage {
  pieces: string[];
  closed: boolean;
}

/** Members serialized between two turns of the event loop, so that other requests are not held up. */
const MEMBERS_PER_TURN = 50;

/** Records that remove or change instances already in the history (the temporal API's edits). */
const EDITS = new Set<HistoryChange["op"]>(["delEntity", "delAttr", "delInst", "modInst"]);

/**
 * The Linked Data Event Stream of each tenant (docs/ldes.md): one `ldes:EventStream` of entity versions,
 * read from the temporal history, fragmented by {@link LdesWindow} into time pages, each cut into parts of
 * at most `pageMembers` members. The pages that hold members are listed once per change of the tenant's
 * history; pages are rendered on request (the face keeps closed ones).
 */
export class LdesFeed {
  private readonly pageLists = new Map<string, { first: number; pages: number[] }>();
  private readonly editListeners: ((tenant: string) => void)[] = [];

  constructor(
    private readonly index: TemporalIndex,
    private readonly ctx: CompiledContext,
    readonly window: LdesWindow,
    private readonly pageMembers: number,
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
   * Part `part` of page `start` of the stream, or undefined when no such part is served (not a page start,
   * in the future, past the retention window, or past the page's last member). Its members are read from
   * the history at once, then serialized {@link MEMBERS_PER_TURN} at a time, yielding to the event loop
   * between them.
   */
  async page(
    tenant: string,
    iris: LdesIris,
    start: number,
    part: number,
    now: number,
  ): Promise<LdesPage | undefined> {
    const w = this.window;
    if (w.pageOf(start) !== start || start > w.pageOf(now) || start < w.firstPage(now)) return undefined;
    const closed = w.closed(start, now);
    const versions = versionsIn(this.index, tenant, {
      from: start,
      to: start + w.pageMs,
      minTime: w.minTime(start),
    });
    const first = part * this.pageMembers;
    if (part > 0 && first >= versions.length) return undefined;
    const slice = versions.slice(first, first + this.pageMembers);
    const members = slice.map((v) => versionEntity(this.index, v, this.ctx));
    const last = slice[slice.length - 1];
    const next =
      first + this.pageMembers < versions.length ? { after: last.at, end: start + w.pageMs } : undefined;
    const pieces = [
      pageHead(
        iris,
        start,
        part,
        members.map((m) => m.iri),
        next,
      ),
    ];
    for (let i = 0; i < members.length; i += MEMBERS_PER_TURN) {
      await yieldToLoop();
      const turn = members.slice(i, i + MEMBERS_PER_TURN);
      pieces.push(turn.map((m, k) => memberTriples(m, this.ctx, first + i + k)).join(""));
    }
    return { pieces, closed };
  }
}
