import type { Context } from "koa";
import { AppError } from "../../errors";

/**
 * Every query parameter the NGSI-LD API defines (ETSI GS CIM 009 v1.8 §6 resource tables). A request
 * with any other parameter is refused with 400 InvalidRequest before its body is read (§6.3.x; the ETSI
 * suite's 059_01 tests).
 */
const KNOWN = new Set([
  "id",
  "type",
  "idPattern",
  "attrs",
  "q",
  "csf",
  "georel",
  "geometry",
  "coordinates",
  "geoproperty",
  "geometryProperty",
  "lang",
  "scopeQ",
  "options",
  "format",
  "limit",
  "offset",
  "count",
  "local",
  "via",
  "pick",
  "omit",
  "join",
  "joinLevel",
  "containedBy",
  "entityMap",
  "datasetId",
  "deleteAll",
  "details",
  "kind",
  "reload",
  "timerel",
  "timeAt",
  "endTimeAt",
  "timeproperty",
  "lastN",
  "aggrMethods",
  "aggrPeriodDuration",
  "keep",
  "drop",
  "expandValues",
  "jsonKeys",
  "observedAt",
  "doNotCompact",
  "orderBy",
]);

/** Throws 400 InvalidRequest naming the first query parameter the API does not define. */
export function checkKnownParams(ctx: Context): void {
  for (const name of Object.keys(ctx.query)) {
    if (!KNOWN.has(name)) {
      throw new AppError("InvalidRequest", `Unknown query parameter ${name}`, { parameter: name });
    }
  }
}
