import { decide, listReviews, type ReviewItem } from "../api/reviews";
import { h, formatTime, replaceChildren } from "../ui/dom";
import type { StatusLine } from "../ui/status";

const PAGE = 10;

/**
 * The review queue of citizen reports (operators only): each report with its photos, place, score and
 * the evidence behind it, and confirm / reject with a note. The queue is paginated by the service.
 */
export class ReviewsView {
  private offset = 0;
  private readonly list = h("ul", { class: "review-list", "aria-label": "Reports waiting for review" });
  private readonly info = h("span", { class: "page-info", "aria-live": "polite" });
  private readonly prev = h("button", { type: "button", onclick: () => this.page(-PAGE) }, "‹ Previous");
  private readonly next = h("button", { type: "button", onclick: () => this.page(PAGE) }, "Next ›");
  readonly el = h(
    "section",
    { class: "view reviews-view", "aria-label": "Review queue" },
    h("h2", {}, "Review queue"),
    this.list,
    h("nav", { class: "pager", "aria-label": "Review queue pages" }, this.prev, this.info, this.next),
  );

  constructor(
    private readonly status: StatusLine,
    private readonly showOnMap: (lat: number, lon: number, label: string) => void,
    private readonly photo: (url: string) => Promise<string>,
  ) {}

  async refresh(): Promise<void> {
    const done = this.status.progress("Loading the review queue…");
    try {
      const page = await listReviews(PAGE, this.offset);
      replaceChildren(
        this.list,
        page.items.length
          ? page.items.map((r) => h("li", {}, this.card(r)))
          : h("li", { class: "empty" }, "No reports wait for review."),
      );
      const pages = Math.max(1, Math.ceil(page.total / PAGE));
      this.info.textContent = `Page ${Math.floor(this.offset / PAGE) + 1} of ${pages} (${page.total})`;
      this.prev.disabled = this.offset === 0;
      this.next.disabled = this.offset + PAGE >= page.total;
      done();
    } catch (e) {
      this.status.error(`The review queue is not available. ${(e as Error).message}`);
    }
  }

  private page(delta: number): void {
    this.offset = Math.max(0, this.offset + delta);
    void this.refresh();
  }

  private card(r: ReviewItem): HTMLElement {
    const noteId = `note-${r.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    const note = h("textarea", { id: noteId, rows: 2 });
    const result = h("p", { class: "decision", role: "status" });
    const act = (decision: "confirm" | "reject") => async () => {
      for (const b of buttons) b.disabled = true;
      result.textContent = decision === "confirm" ? "Confirming…" : "Rejecting…";
      try {
        await decide(r.id, decision, note.value.trim());
        result.textContent = decision === "confirm" ? "Confirmed." : "Rejected.";
        setTimeout(() => void this.refresh(), 800);
      } catch (e) {
        result.textContent = `Not saved. ${(e as Error).message}`;
        for (const b of buttons) b.disabled = false;
      }
    };
    const buttons = [
      h(
        "button",
        { type: "button", class: "confirm", "data-report-id": r.id, onclick: act("confirm") },
        "Confirm",
      ),
      h(
        "button",
        { type: "button", class: "reject", "data-report-id": r.id, onclick: act("reject") },
        "Reject",
      ),
    ];
    const photos = h("div", { class: "photos" });
    for (const url of r.images ?? []) {
      const img = h("img", { alt: `Photo of report ${r.title ?? r.id}`, width: 120, height: 90 });
      photos.append(img);
      this.photo(url).then(
        (src) => (img.src = src),
        () => img.replaceWith(h("span", { class: "error" }, "photo not available")),
      );
    }
    const loc = r.location;
    return h(
      "article",
      { class: `review priority-${r.priority ?? "normal"}`, "data-report-id": r.id },
      h("h3", {}, r.title ?? r.category ?? r.id),
      h(
        "p",
        { class: "meta" },
        `${r.category ?? "report"} · severity ${r.severity ?? "unknown"} · priority ${r.priority ?? "normal"} · ${formatTime(r.submitted_at)}`,
      ),
      r.description ? h("p", {}, r.description) : null,
      photos,
      h(
        "details",
        {},
        h("summary", {}, `Score ${r.score !== undefined ? r.score.toFixed(2) : "unknown"}: the evidence`),
        h(
          "dl",
          {},
          Object.entries(r.evidence ?? {}).flatMap(([k, v]) => [
            h("dt", {}, k),
            h("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v)),
          ]),
        ),
      ),
      loc
        ? h(
            "button",
            {
              type: "button",
              class: "link",
              onclick: () => this.showOnMap(loc.lat, loc.lon, r.title ?? r.id),
            },
            `Show on the map (${loc.address ?? `${loc.lat.toFixed(4)}, ${loc.lon.toFixed(4)}`})`,
          )
        : null,
      h("label", { for: noteId }, "Note"),
      note,
      h("div", { class: "actions" }, buttons),
      result,
    );
  }
}
