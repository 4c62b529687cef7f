/**
 * One pushed event's message, rendered once for every subscriber it goes to: the JSON after the
 * subscriber's own head (its subscription id) is one Buffer, and each distinct head is joined to it
 * once, so that the sockets whose subscriptions share an id receive the very same Buffer.
 */
export class SharedMessage {
  private readonly byHead = new Map<string, Buffer>();
  private readonly tail: Buffer;

  /** `json` is a JSON object's text; heads are inserted after its opening brace. */
  constructor(json: string) {
    this.tail = Buffer.from(json.slice(1));
  }

  /** The message with `head` (e.g. `{"subscription":"s1",`) in front: built once per head. */
  with(head: string): Buffer {
    let whole = this.byHead.get(head);
    if (whole === undefined) {
      whole = Buffer.concat([Buffer.from(head), this.tail]);
      this.byHead.set(head, whole);
    }
    return whole;
  }
}
