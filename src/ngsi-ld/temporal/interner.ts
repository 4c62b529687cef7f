/**
 * Interned instance templates of the temporal history: the JSON of an
 * instance without its times and numeric value is the same for most instances of a sensor (`type`,
 * `unitCode`, `datasetId`, sub-properties), so each distinct text is kept once and rows hold its id.
 * Parsed objects are cached beside the text; ids are never reused.
 */
export class Interner {
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];
  private readonly parsed: (Record<string, unknown> | undefined)[] = [];
  private readonly json: (string | undefined)[] = [];

  /** The id of `text`, adding it when new. */
  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.texts.length;
      this.ids.set(text, id);
      this.texts.push(text);
      this.parsed.push(undefined);
      this.json.push(undefined);
    }
    return id;
  }

  /** The text of `id`. */
  text(id: number): string {
    return this.texts[id];
  }

  /** The parsed JSON object of `id` (shared: callers copy before changing it). */
  object(id: number): Record<string, unknown> {
    let o = this.parsed[id];
    if (o === undefined) this.parsed[id] = o = JSON.parse(this.texts[id]) as Record<string, unknown>;
    return o;
  }

  /**
   * `JSON.stringify(object(id))`, memoized: what a template object serializes to inside a larger JSON
   * text (the sealed segments' `templates`), without stringifying it again each time. The same string as
   * the text itself when the text is already in that form (texts made by `JSON.stringify` are).
   */
  stringified(id: number): string {
    let s = this.json[id];
    if (s === undefined) {
      s = JSON.stringify(this.object(id));
      this.json[id] = s = s === this.texts[id] ? this.texts[id] : s;
    }
    return s;
  }

  /** Number of distinct templates. */
  get size(): number {
    return this.texts.length;
  }
}
