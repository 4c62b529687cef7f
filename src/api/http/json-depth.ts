import { AppError } from "../../errors";

/**
 * Deepest nesting of arrays and objects a JSON body may have (docs/configuration.md "Limits"): every reader of a value
 * (codec, history, renderers, the subscription matcher) recurses into it, so a deeper one could overflow
 * the stack after the write was committed. GeoJSON MultiPolygons inside an attribute inside a batch need 8.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Throws 400 InvalidRequest if JSON text nests arrays and objects deeper than `max`. One pass over the
 * text without recursion, strings skipped, run before JSON.parse so nothing deeper is ever built.
 */
export function checkJsonDepth(text: string, max: number = MAX_JSON_DEPTH): void {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote, past escapes
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        throw new AppError(
          "InvalidRequest",
          `The body nests arrays and objects deeper than the limit of ${max}`,
          {
            limit: max,
          },
        );
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}
