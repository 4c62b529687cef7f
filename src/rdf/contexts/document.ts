import { AppError } from "../../errors";

/** A JSON-LD document that carries a context: a JSON object with an `@context` member. */
export interface ContextDocument {
  "@context": unknown;
  [key: string]: unknown;
}

/** True for a non-null, non-array object. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Parses the text of a dereferenced @context and checks that it is a JSON object with an
 * `@context` member (JSON-LD 1.1 API §4.1.2 step 5.2.5: "invalid remote context"). A document that
 * was retrieved but is not a usable context is bad input of the request that named it, so this is
 * BadRequestData (ETSI GS CIM 009 §5.5.2, Table 5.5.2-1); unreachable ones are LdContextNotAvailable.
 */
export function parseContextDocument(text: string, url: string): ContextDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError("BadRequestData", `The @context at ${url} is not valid JSON`, { url });
  }
  return checkContextDocument(parsed, url);
}

/** Checks an already parsed document (see {@link parseContextDocument}). */
export function checkContextDocument(parsed: unknown, url: string): ContextDocument {
  if (!isJsonObject(parsed) || !("@context" in parsed)) {
    throw new AppError("BadRequestData", `The document at ${url} has no top-level "@context" member`, {
      url,
    });
  }
  return parsed as ContextDocument;
}
