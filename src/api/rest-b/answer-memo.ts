/**
 * Rendered JSON answers kept between requests under a key that names everything they were computed
 * from (the route puts the inputs and the versions of the state read in it), so an unchanged key is an
 * unchanged answer. Least recently used first out, at most `maxEntries` answers and `maxChars` of text.
 */
export class AnswerMemo {
  private readonly answers = new Map<string, string>();
  private chars = 0;

  constructor(
    private readonly maxEntries = 64,
    private readonly maxChars = 8_000_000,
  ) {}

  /** The answer kept under `key`, else `render()`'s, kept for the next request with the same key. */
  get(key: string, render: () => string): string {
    const kept = this.answers.get(key);
    if (kept !== undefined) {
      this.answers.delete(key);
      this.answers.set(key, kept);
      return kept;
    }
    const text = render();
    if (text.length > this.maxChars) return text;
    this.answers.set(key, text);
    this.chars += text.length;
    for (const [k, v] of this.answers) {
      if (this.answers.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.answers.delete(k);
      this.chars -= v.length;
    }
    return text;
  }
}
