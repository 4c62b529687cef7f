import { AppError } from "../../errors";
import { isAbsoluteUrl } from "./resolver";

/** The link relation of a JSON-LD context Link header (JSON-LD 1.1 §6.1; ETSI GS CIM 009 §6.3.5). */
export const JSON_LD_CONTEXT_REL = "http://www.w3.org/ns/json-ld#context";

/** One parsed link-value of a Link header (IETF RFC 8288 §3). */
export interface LinkValue {
  target: string;
  params: Record<string, string>;
}

function bad(message: string, header: string): AppError {
  return new AppError("BadRequestData", message, { header });
}

/** Splits a Link header on the commas that separate link-values (not those inside <> or quotes). */
function splitLinkValues(header: string): string[] {
  const parts: string[] = [];
  let current = "";
  let inAngle = false;
  let inQuote = false;
  for (let i = 0; i < header.length; i++) {
    const ch = header[i];
    if (inQuote) {
      if (ch === "\\" && i + 1 < header.length) current += ch + header[++i];
      else {
        if (ch === '"') inQuote = false;
        current += ch;
      }
      continue;
    }
    if (ch === "<") inAngle = true;
    else if (ch === ">") inAngle = false;
    else if (ch === '"' && !inAngle) inQuote = true;
    else if (ch === "," && !inAngle) {
      parts.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** Parses a whole Link header into link-values (RFC 8288 §3); malformed input throws BadRequestData. */
export function parseLinkHeader(header: string): LinkValue[] {
  return splitLinkValues(header).map((part) => {
    const m = /^<([^>]*)>\s*(.*)$/s.exec(part);
    if (!m) throw bad(`Malformed Link header value: ${part}`, header);
    const params: Record<string, string> = {};
    const rest = m[2].trim();
    if (rest !== "") {
      if (!rest.startsWith(";")) throw bad(`Malformed Link header parameters: ${part}`, header);
      const re = /;\s*([A-Za-z0-9!#$&+\-.^_`|~*]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;]*))?\s*/gy;
      let pos = 0;
      while (pos < rest.length) {
        re.lastIndex = pos;
        const p = re.exec(rest);
        if (!p || p.index !== pos) throw bad(`Malformed Link header parameters: ${part}`, header);
        const raw = (p[2] ?? "").trim();
        const val = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
        params[p[1].toLowerCase()] = val;
        pos = re.lastIndex;
      }
    }
    return { target: m[1].trim(), params };
  });
}

/**
 * The @context URL of a request's Link header (ETSI GS CIM 009 §6.3.5), or undefined when the
 * header is absent or carries no JSON-LD context link. Throws BadRequestData (400) when the header
 * is malformed, when more than one JSON-LD context link is given (§6.3.5: at most one), or when the
 * target is not an absolute URL.
 */
export function parseContextLink(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const links = parseLinkHeader(header).filter((l) =>
    (l.params.rel ?? "").split(/\s+/).includes(JSON_LD_CONTEXT_REL),
  );
  if (links.length === 0) return undefined;
  if (links.length > 1) throw bad("More than one JSON-LD @context Link header", header);
  const target = links[0].target;
  if (!isAbsoluteUrl(target))
    throw bad(`The JSON-LD @context Link target must be an absolute URL: ${target}`, header);
  return target;
}

/** The Link header value a response carries to name its @context (§6.3.5). */
export function contextLinkHeader(url: string): string {
  return `<${url}>; rel="${JSON_LD_CONTEXT_REL}"; type="application/ld+json"`;
}
