/** Attribute values of {@link h}: strings, numbers, booleans (present or not) and `on*` listeners. */
export type Attrs = Record<string, string | number | boolean | undefined | null | ((e: Event) => void)>;
/** A child of {@link h}: nodes, text (never parsed as HTML), or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Creates an element with attributes, listeners and children; text is always text, never markup. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

/** Appends children (nested arrays flattened, empty ones skipped). */
export function append(el: Element, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

/** Replaces every child of `el`. */
export function replaceChildren(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A date-time in the viewer's locale, or "unknown". */
export function formatTime(iso: string | undefined): string {
  if (!iso) return "unknown";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** The local part of an NGSI-LD id (`urn:ngsi-ld:TrafficCamera:12` -> `12`). */
export function localId(id: string): string {
  return id.slice(id.lastIndexOf(":") + 1);
}
