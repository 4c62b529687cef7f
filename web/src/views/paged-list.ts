import { h, replaceChildren } from "../ui/dom";

/** Options of a {@link PagedList}. */
export interface PagedListOptions<T> {
  /** Accessible name of the list. */
  label: string;
  pageSize: number;
  /** One item's content (inside its `<li>`). */
  render: (item: T) => Node;
  /** Shown when there are no items. */
  empty: string;
  /** Items matching a filter text; with it the list gets a labelled search box. */
  filter?: (item: T, text: string) => boolean;
}

/**
 * A list shown a page at a time, with previous / next buttons and "page x of y", and an optional
 * search box: every list of the dashboard is one.
 */
export class PagedList<T> {
  readonly el: HTMLElement;
  private items: readonly T[] = [];
  private page = 0;
  private text = "";
  private readonly list: HTMLUListElement;
  private readonly info: HTMLSpanElement;
  private readonly prev: HTMLButtonElement;
  private readonly next: HTMLButtonElement;

  constructor(private readonly o: PagedListOptions<T>) {
    this.list = h("ul", { class: "paged-items", "aria-label": o.label });
    this.info = h("span", { class: "page-info", "aria-live": "polite" });
    this.prev = h("button", { type: "button", onclick: () => this.go(this.page - 1) }, "‹ Previous");
    this.next = h("button", { type: "button", onclick: () => this.go(this.page + 1) }, "Next ›");
    const search = o.filter
      ? h(
          "label",
          { class: "list-search" },
          `Search ${o.label.toLowerCase()}`,
          h("input", {
            type: "search",
            oninput: (e: Event) => {
              this.text = (e.target as HTMLInputElement).value.trim().toLowerCase();
              this.go(0);
            },
          }),
        )
      : null;
    this.el = h(
      "div",
      { class: "paged-list" },
      search,
      this.list,
      h("nav", { class: "pager", "aria-label": `${o.label} pages` }, this.prev, this.info, this.next),
    );
  }

  /** Replaces the items; keeps the page when it still exists. */
  set(items: readonly T[]): void {
    this.items = items;
    this.go(this.page);
  }

  private visible(): readonly T[] {
    const f = this.o.filter;
    return f && this.text ? this.items.filter((i) => f(i, this.text)) : this.items;
  }

  private go(page: number): void {
    const items = this.visible();
    const pages = Math.max(1, Math.ceil(items.length / this.o.pageSize));
    this.page = Math.min(Math.max(0, page), pages - 1);
    const shown = items.slice(this.page * this.o.pageSize, (this.page + 1) * this.o.pageSize);
    replaceChildren(
      this.list,
      shown.length
        ? shown.map((i) => h("li", {}, this.o.render(i)))
        : h("li", { class: "empty" }, this.o.empty),
    );
    this.info.textContent = `Page ${this.page + 1} of ${pages} (${items.length})`;
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
  }
}
