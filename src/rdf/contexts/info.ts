import { AppError } from "../../errors";
import { type ContextDocument, isJsonObject } from "./document";
import { isAbsoluteUrl } from "./resolver";

/** The kinds of stored @contexts (ETSI GS CIM 009 v1.8 §5.13.1). */
export const CONTEXT_KINDS = ["Hosted", "Cached", "ImplicitlyCreated"] as const;
/** One kind of stored @context. */
export type ContextKind = (typeof CONTEXT_KINDS)[number];

/** Metadata of a stored @context as the API shows it with `details=true` (§5.13.3.5 / §5.13.4.5). */
export interface ContextInfo {
  /** For Cached: the original URL; for Hosted and ImplicitlyCreated: where this broker serves it. */
  URL: string;
  /** The broker's local identifier. */
  localId: string;
  kind: ContextKind;
  /** When it was stored (or last reloaded). */
  createdAt: string;
  /** When a request last used it. */
  lastUsage?: string;
  /** How many times it has been used. */
  numberOfHits: number;
  /** Broker-specific extras: where a Cached copy comes from. */
  extraInfo?: Record<string, unknown>;
}

/** A Hosted or ImplicitlyCreated @context as persisted in `${dataDir}/hosted-contexts/`. */
export interface StoredContext {
  localId: string;
  kind: "Hosted" | "ImplicitlyCreated";
  /** NGSILD-Tenant it belongs to ("" = default tenant), §5.5.10. */
  tenant: string;
  createdAt: string;
  document: ContextDocument;
}

/** Usage counters kept in memory for every entry. */
export interface Usage {
  hits: number;
  lastUsage?: number;
}

/**
 * Checks the `@context` member of a body given to Add @context (§5.13.2) or of a subscription's
 * implicit @context: a URL, an object, or a non-empty array of those. Other values are
 * BadRequestData (§5.5.2).
 */
export function checkStorableContext(value: unknown): void {
  const ok = (v: unknown): boolean => isJsonObject(v) || (typeof v === "string" && isAbsoluteUrl(v));
  if (Array.isArray(value) ? value.length > 0 && value.every(ok) : ok(value)) return;
  throw new AppError(
    "BadRequestData",
    "@context must be an absolute URL, an object, or a non-empty array of those",
  );
}

/**
 * Checks a body given to Add @context (§5.13.2.4): a JSON object with an `@context` member.
 * Anything else is InvalidRequest (ETSI test 050_02; §6.3.2: the payload is not of the expected
 * form), while a present but unusable `@context` value is BadRequestData.
 */
export function checkAddContextBody(body: unknown): ContextDocument {
  if (!isJsonObject(body) || !("@context" in body)) {
    throw new AppError("InvalidRequest", 'The request body must be a JSON object with an "@context" member');
  }
  checkStorableContext(body["@context"]);
  return { "@context": body["@context"] };
}
