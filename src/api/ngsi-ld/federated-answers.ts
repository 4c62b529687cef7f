import type { Context } from "koa";
import type { SourceFailure } from "../../ngsi-ld/federation/distributor";
import type { ShownEntity } from "../../ngsi-ld/federation/merge-entities";

/** Reports failed sources of a read in `NGSILD-Warning` headers (199, IETF RFC 7234 §5.5 style). */
export function warnOfFailures(ctx: Context, failures: SourceFailure[]): void {
  for (const f of failures) {
    ctx.append("NGSILD-Warning", `199 ${f.endpoint} ${JSON.stringify(`${f.registrationId}: ${f.detail}`)}`);
  }
}

/** The entities of the local answer to a read, as the route left them in `ctx.body`. */
export function shownOf(body: unknown): ShownEntity[] {
  const v = Buffer.isBuffer(body)
    ? JSON.parse(body.toString("utf8"))
    : typeof body === "string" && body
      ? JSON.parse(body)
      : body;
  if (Array.isArray(v)) return v as ShownEntity[];
  return v && typeof v === "object" ? [v as ShownEntity] : [];
}
