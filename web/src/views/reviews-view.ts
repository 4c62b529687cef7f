import { decide, listReviews, type ReviewItem } from "../api/reviews";
import { h, formatTime } from "../ui/dom";
import type { StatusLine } from "../ui/status";
import { PagedList } from "./paged-list";

/**
 * The review queue of citizen reports (operators only): each report with its photos, place, score and
 * the evidence behind it, and confirm / reject with a note; ten reports a page.
 */
export class ReviewsView {
  private readonly list = new PagedList<ReviewItem>({
    label: "Reports waiting for review",
    pageSize: 10,
    empty: "No reports wait for review.",
    render: (r) => this.card(r),
  });
  readonly el = h(
    "section",
    { class: "view reviews-view", "aria-label": "Review queue" },
    h("h2", {}, "Review queue"),
    this.list.el,
  );

  constructor(
    private readonly status: StatusLine,
    private readonly showOnMap: (lat: number, lon: number, label: string) => void,
    private readonly photo: (url: string) => Promise<string>,
  ) {}

  async refresh(): Promise<void> {
    const done = this.status.progress("Loading the review queue…");
    try {
      this.list.set(await listReviews());
      done();
    } catch (e) {
      this.status.error(`The review queue is not available. ${(e as Error).message}`);
    }
  }

  private card(r: ReviewItem): HTMLElement {
    const noteId = `note-${r.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    const note = h("textarea", { id: noteId, rows: 2, maxlength: 2000 });
    const result = h("p", { class: "decision", role: "status" });
    const act = (decision: "confirm" | "reject") => async () => {
      for (const b of buttons) b.disabled = true;
      result.textContent = decision === "confirm" ? "Confirming…" : "Rejecting…";
      try {
        await decide(r.id, decision, note.value.trim());
        result.textContent = decision === "confirm" ? "Confirmed." : "Rejected.";
        // the page may have moved on (log out) by then
        setTimeout(() => {
          if (this.el.isConnected) void this.refresh();
        }, 1500);
      } catch (e) {
        result.textContent = `Not saved. ${(e as Error).message}`;
        for (const b of buttons) b.disabled = false;
      }
    };
    const title = r.title ?? `${r.category ?? "Report"} ${r.id}`;
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
      const img = h("img", { alt: `Photo of the report "${title}"`, width: 120, height: 90 });
      photos.append(img);
      this.photo(url).then(
        (src) => (img.src = src),
        () => img.replaceWith(h("span", { class: "error" }, "photo not available")),
      );
    }
    const loc = r.location;
    const evidence = Object.entries(r.evidence ?? {});
    return h(
      "article",
      { class: `review priority-${r.priority ?? "normal"}`, "data-report-id": r.id },
      h("h3", {}, title),
      h(
        "p",
        { class: "meta" },
        `${r.category ?? "report"} · severity ${r.severity ?? "unknown"} · priority ${r.priority ?? "normal"} · ${formatTime(r.reportedAt)}`,
      ),
      r.description ? h("p", {}, r.description) : null,
      photos,
      h(
        "details",
        {},
        h(
          "summary",
          {},
          `Score ${typeof r.score === "number" ? r.score.toFixed(2) : "not computed yet"}: the evidence`,
        ),
        evidence.length
          ? h(
              "dl",
              {},
              evidence.flatMap(([k, v]) => [
                h("dt", {}, k),
                h("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v)),
              ]),
            )
          : h("p", {}, "No evidence recorded."),
      ),
      loc
        ? h(
            "button",
            { type: "button", class: "link", onclick: () => this.showOnMap(loc.lat, loc.lon, title) },
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
