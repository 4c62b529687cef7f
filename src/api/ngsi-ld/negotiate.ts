import type { Context } from "koa";
import { AppError } from "../../errors";
import { contextLinkHeader } from "../../rdf/contexts/link";
import { CORE_CONTEXT_URL } from "../../rdf/contexts/core";
import { type NgsiState, ngsiState } from "./ngsi-state";

/** The response media types of the NGSI-LD face (ETSI GS CIM 009 §6.3.6). */
export type NgsiMediaType = "application/json" | "application/ld+json" | "application/geo+json";

/**
 * Picks the response media type from the Accept header among `offered` (first = default);
 * 406 NotAcceptable when none fits (§6.3.6).
 */
export function negotiate(ctx: Context, offered: NgsiMediaType[]): NgsiMediaType {
  const accept = ctx.get("Accept");
  if (!accept) return offered[0];
  const ranges = accept
    .split(",")
    .map((r) => {
      const [type, ...params] = r.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { type: type.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const r of ranges) {
    if (r.type === "*/*" || r.type === "application/*") return offered[0];
    const hit = offered.find((o) => o === r.type);
    if (hit) return hit;
  }
  throw new AppError("NotAcceptable", `None of the media types in Accept (${accept}) can be produced`);
}

/** The @context to show with a response: what the request used, else the core context URL. */
export function responseContext(state: NgsiState): unknown {
  return state.contextValue ?? CORE_CONTEXT_URL;
}

/**
 * Sends a JSON body in the negotiated media type: with `@context` inside for JSON-LD (objects, or each
 * element of an array), with a context Link header for plain JSON and GeoJSON (§6.3.5, §6.3.6).
 */
export function sendNgsi(ctx: Context, status: number, body: unknown, type: NgsiMediaType): void {
  const context = responseContext(ngsiState(ctx));
  const withContext = (o: unknown): unknown =>
    typeof o === "object" && o !== null && !Array.isArray(o) ? { ...o, "@context": context } : o;
  ctx.status = status;
  if (type === "application/ld+json") {
    ctx.body = Array.isArray(body) ? body.map(withContext) : withContext(body);
  } else {
    // GeoJSON carries the @context in the Feature (or FeatureCollection) as well as in the Link (§6.3.15).
    ctx.body = type === "application/geo+json" ? withContext(body) : body;
    appendContextLink(ctx, context);
  }
  ctx.set("Content-Type", type);
}

const OPEN = Buffer.from("[");
const CLOSE = Buffer.from("]");
const COMMA = Buffer.from(",");
const OPEN_OBJECT = Buffer.from("{");

function appendContextLink(ctx: Context, context: unknown): void {
  ctx.append("Link", contextLinkHeader(typeof context === "string" ? context : CORE_CONTEXT_URL));
}

/**
 * Like {@link sendNgsi} for an array of entities already serialized (each a JSON object text): the
 * same bodies and headers, without parsing the texts again.
 */
export function sendNgsiJsonArray(
  ctx: Context,
  status: number,
  items: Buffer[],
  type: "application/json" | "application/ld+json",
): void {
  const context = responseContext(ngsiState(ctx));
  ctx.status = status;
  const parts: Buffer[] = [OPEN];
  const member =
    type === "application/ld+json" ? Buffer.from(`"@context":${JSON.stringify(context)}}`) : undefined;
  items.forEach((t, i) => {
    if (i > 0) parts.push(COMMA);
    if (!member) parts.push(t);
    else if (t.length === 2) parts.push(OPEN_OBJECT, member);
    else parts.push(t.subarray(0, -1), COMMA, member);
  });
  parts.push(CLOSE);
  // one Buffer outside the JavaScript heap: the texts are not joined, flattened and encoded as strings
  ctx.body = Buffer.concat(parts);
  if (!member) appendContextLink(ctx, context);
  ctx.set("Content-Type", type);
}
