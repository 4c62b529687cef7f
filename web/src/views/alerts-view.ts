import { activeAlerts, type Alert } from "../api/alerts";
import { h, formatTime } from "../ui/dom";
import type { StatusLine } from "../ui/status";
import { PagedList } from "./paged-list";

/** Active alerts (`GET /v1/alerts/active`), newest first, a page at a time; refreshed when shown. */
export class AlertsView {
  private readonly list = new PagedList<Alert>({
    label: "Active alerts",
    pageSize: 15,
    empty: "No active alerts.",
    filter: (a, t) =>
      `${a.type} ${a.severity} ${a.message} ${a.location?.address ?? ""}`.toLowerCase().includes(t),
    render: (a) =>
      h(
        "article",
        { class: `alert sev-${a.severity}` },
        h("h3", {}, `${a.type}: ${a.severity}`),
        h("p", {}, a.message),
        h(
          "p",
          { class: "meta" },
          formatTime(a.timestamp),
          a.location?.address ? ` · ${a.location.address}` : "",
        ),
      ),
  });
  readonly el = h(
    "section",
    { class: "view alerts-view", "aria-label": "Active alerts" },
    h("h2", {}, "Active alerts"),
    this.list.el,
  );

  constructor(private readonly status: StatusLine) {}

  async refresh(): Promise<void> {
    const done = this.status.progress("Loading the active alerts…");
    try {
      const alerts = await activeAlerts();
      this.list.set([...alerts].sort((a, b) => b.timestamp.localeCompare(a.timestamp)));
      done();
    } catch (e) {
      this.status.error(`Alerts not available. ${(e as Error).message}`);
    }
  }
}
