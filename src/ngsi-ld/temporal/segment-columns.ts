/** A number as `JSON.stringify` writes it (non-finite numbers are `null`). */
function num(x: number): string {
  return Number.isFinite(x) ? String(x) : "null";
}

/**
 * The JSON text of the instances of one attribute in a history segment, column by column (the
 * `cgh:instances` JSON of segment-graph.ts; docs/architecture.md "Temporal history in the graph"), built
 * as text while the instances are read, in time order, instead of arrays serialized afterwards (about
 * ten arrays per attribute and segment: a share of the main thread's allocation while a POST burst is
 * sealed, docs/decisions/0001-write-path.md). The members, in this order:
 *
 * - `attr`: the attribute IRI;
 * - `n`: instance numbers (instanceId `urn:ngsi-ld:attribute:instance:<n>`), delta-encoded (the first
 *   value, then each value minus the one before);
 * - `o`: observedAt in ms after the segment start, delta-encoded, `null` where absent (and skipped as a
 *   reference);
 * - `c`: createdAt in ms after the segment start, delta-encoded;
 * - `m`: modifiedAt - createdAt (ms), left out when all are 0;
 * - `v`: the numeric value, or `null` when the value is in the template;
 * - `t`: index of each instance's template (its JSON without times, instanceId and numeric value); one
 *   number when every instance has the same.
 *
 * The text is what `JSON.stringify` gives for the same columns as arrays (the earlier form).
 */
export class AttributeColumns {
  private n = "";
  private o = "";
  private c = "";
  private m = "";
  private v = "";
  private t = "";
  private prevN = 0;
  private prevO = 0;
  private prevC = 0;
  private anyM = false;
  private firstT = -1;
  private sameT = true;
  private count = 0;

  constructor(private readonly attr: string) {}

  /** Adds one instance (times in ms after the segment start; NaN observedAt = absent, NaN value = none). */
  add(
    iid: number,
    obs: number,
    created: number,
    modifiedMinusCreated: number,
    value: number,
    tpl: number,
  ): void {
    const sep = this.count++ === 0 ? "" : ",";
    this.n += sep + num(iid - this.prevN);
    this.prevN = iid;
    if (Number.isNaN(obs)) this.o += sep + "null";
    else {
      this.o += sep + num(obs - this.prevO);
      this.prevO = obs;
    }
    this.c += sep + num(created - this.prevC);
    this.prevC = created;
    this.m += sep + num(modifiedMinusCreated);
    if (modifiedMinusCreated !== 0) this.anyM = true;
    this.v += sep + (Number.isNaN(value) ? "null" : num(value));
    this.t += sep + num(tpl);
    if (this.firstT === -1) this.firstT = tpl;
    else if (tpl !== this.firstT) this.sameT = false;
  }

  /** The attribute's JSON object. */
  json(): string {
    const m = this.anyM ? `"m":[${this.m}],` : "";
    const t = this.sameT ? num(this.firstT) : `[${this.t}]`;
    return `{"attr":${JSON.stringify(this.attr)},"n":[${this.n}],"o":[${this.o}],"c":[${this.c}],${m}"v":[${this.v}],"t":${t}}`;
  }
}
