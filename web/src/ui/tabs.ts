import { h } from "./dom";

/** One tab: its id, label and panel. */
export interface Tab {
  id: string;
  label: string;
  panel: HTMLElement;
}

/**
 * Tabs in the WAI-ARIA pattern: a tablist of buttons (arrow keys move between them, Enter/Space or a
 * click selects) and one visible tabpanel.
 */
export class Tabs {
  readonly el: HTMLElement;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly panels = new Map<string, HTMLElement>();

  constructor(label: string, tabs: Tab[]) {
    const list = h("div", { role: "tablist", "aria-label": label, class: "tablist" });
    const panels: HTMLElement[] = [];
    for (const t of tabs) {
      const b = h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `tab-${t.id}`,
          "aria-controls": `panel-${t.id}`,
          "data-tab": t.id,
          onclick: () => this.select(t.id),
          onkeydown: (e: Event) => this.keys(e as KeyboardEvent, tabs, t.id),
        },
        h("span", {}, t.label),
        h("span", { class: "count" }),
      );
      const panel = h(
        "div",
        { role: "tabpanel", id: `panel-${t.id}`, "aria-labelledby": `tab-${t.id}`, class: "tabpanel" },
        t.panel,
      );
      this.buttons.set(t.id, b);
      this.panels.set(t.id, panel);
      list.append(b);
      panels.push(panel);
    }
    this.el = h("div", { class: "tabs" }, list, panels);
    this.select(tabs[0].id);
  }

  select(id: string): void {
    for (const [k, b] of this.buttons) {
      const on = k === id;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
      this.panels.get(k)!.hidden = !on;
    }
  }

  /** Shows a number beside a tab's label ("Accidents 12"). */
  setCount(id: string, n: number): void {
    const c = this.buttons.get(id)?.querySelector(".count");
    if (c) c.textContent = ` ${n}`;
  }

  private keys(e: KeyboardEvent, tabs: Tab[], id: string): void {
    const i = tabs.findIndex((t) => t.id === id);
    const to =
      e.key === "ArrowRight"
        ? i + 1
        : e.key === "ArrowLeft"
          ? i - 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? tabs.length - 1
              : undefined;
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length].id;
    this.select(next);
    this.buttons.get(next)?.focus();
  }
}
