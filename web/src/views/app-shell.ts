import { session } from "../api/session";
import { authorizedImage } from "../api/images";
import { watchReadiness } from "../api/readiness";
import type { ClientConfig } from "../config";
import { h } from "../ui/dom";
import { StatusLine } from "../ui/status";
import { AlertsView } from "./alerts-view";
import { MapView } from "./map-view";
import { ReviewsView } from "./reviews-view";
import { hashRoute } from "./sparql-share";
import { SparqlView } from "./sparql-view";

type Route = "map" | "reviews" | "alerts" | "sparql";
const ROUTES: { id: Route; label: string }[] = [
  { id: "map", label: "Live map" },
  { id: "reviews", label: "Review queue" },
  { id: "alerts", label: "Active alerts" },
  { id: "sparql", label: "SPARQL console" },
];

/**
 * The logged-in page: a header with the views (hash routes `#map`, `#reviews`, `#alerts`, `#sparql`),
 * the user and log out, the status line, and one view shown at a time. The review queue is offered
 * to operators only.
 */
export class AppShell {
  readonly el: HTMLElement;
  private readonly status = new StatusLine();
  private readonly map: MapView;
  private readonly alerts = new AlertsView(this.status);
  private readonly reviews: ReviewsView;
  private readonly sparql: SparqlView;
  private readonly views: Record<Route, HTMLElement>;
  private readonly links = new Map<Route, HTMLAnchorElement>();
  private readonly onHash = () => this.route();
  /** Shown while the service is not ready (its history still loading). */
  private readonly loading = h("p", { class: "readiness", role: "status", hidden: true });
  private stopReadiness: () => void = () => undefined;

  constructor(config: ClientConfig, logout: () => void) {
    this.map = new MapView(config, this.status);
    this.reviews = new ReviewsView(
      this.status,
      (lat, lon, label) => {
        location.hash = "#map";
        this.map.showPoint(lat, lon, label);
      },
      authorizedImage,
    );
    this.sparql = new SparqlView(config.sparqlPrefixes);
    this.views = {
      map: this.map.el,
      reviews: this.reviews.el,
      alerts: this.alerts.el,
      sparql: this.sparql.el,
    };
    const nav = h("nav", { class: "main-nav", "aria-label": "Views" });
    for (const r of ROUTES) {
      if (r.id === "reviews" && !session.canReview()) continue;
      const a = h("a", { href: `#${r.id}`, "data-route": r.id }, r.label);
      this.links.set(r.id, a);
      nav.append(a);
    }
    const logoutButton = config.authRequired
      ? h("button", { type: "button", class: "logout", onclick: logout }, "Log out")
      : null;
    this.el = h(
      "div",
      { class: "shell" },
      h(
        "header",
        { class: "top" },
        h("h1", {}, "citygraph"),
        nav,
        h("span", { class: "user" }, session.userLabel()),
        logoutButton,
      ),
      this.loading,
      this.status.el,
      h("main", { id: "main", tabindex: -1 }, Object.values(this.views)),
    );
  }

  /** Starts the map and follows the address's hash. */
  async start(): Promise<void> {
    window.addEventListener("hashchange", this.onHash);
    // until the service is ready its history (the feed's backfill, the indexes) is still filling in
    this.stopReadiness = watchReadiness((s) => {
      this.loading.hidden = s.ready;
      this.loading.textContent = s.ready ? "" : "loading history…";
      this.loading.title = s.notReady.join(", ");
    });
    this.route();
    await this.map.start();
  }

  stop(): void {
    this.stopReadiness();
    window.removeEventListener("hashchange", this.onHash);
    this.map.stop();
  }

  private route(): void {
    let route = (hashRoute() || "map") as Route;
    if (!(route in this.views) || (route === "reviews" && !session.canReview())) route = "map";
    for (const [id, el] of Object.entries(this.views)) el.hidden = id !== route;
    for (const [id, a] of this.links) {
      if (id === route) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    document.title = `${ROUTES.find((r) => r.id === route)?.label} · citygraph`;
    if (route === "map") this.map.shown();
    if (route === "alerts") void this.alerts.refresh();
    if (route === "reviews") void this.reviews.refresh();
    if (route === "sparql") this.sparql.shown();
  }
}
