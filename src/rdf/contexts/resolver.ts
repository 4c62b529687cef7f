import { AppError } from "../../errors";
import { CORE_CONTEXT_URL, isCoreContextUrl } from "./core";
import type { ContextDocument } from "./document";
import { isJsonObject } from "./document";

/** What the resolver needs from a loader. */
export interface ContextDocumentLoader {
  load(url: string): Promise<ContextDocument>;
  /**
   * True when `ref`, a root-relative path, names an @context this broker hosts (the Location path of a
   * Hosted @context): JSON-LD resolves it against the request's URL, that is against this broker.
   */
  isLocalReference?(ref: string): boolean;
}

/** Options of {@link resolveContext}. */
export interface ResolveOptions {
  /** Deepest chain of remote contexts referencing remote contexts; default 8. */
  maxDepth?: number;
  /** Most context objects in the result; default 64. */
  maxContexts?: number;
  /** Called once per URL the value references (directly or nested), core URLs included. */
  onUrl?: (url: string) => void;
}

function bad(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError("BadRequestData", message, details);
}

/** True if `s` is an absolute URL (has a scheme); JSON-LD contexts named by relative URLs are refused. */
export function isAbsoluteUrl(s: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * Turns an @context value (URL string, context object, or array mixing both; JSON-LD 1.1 §3.1)
 * into the flat, ordered list of context OBJECTS that `compileContext` takes. Remote contexts are
 * loaded (and their own `@context` values flattened the same way), with a depth limit and cycle
 * detection. `null` inside an array or a loaded document resets the list (JSON-LD 1.1 API §4.1.2
 * step 5.1); a top-level `null` is refused.
 *
 * The NGSI-LD core @context is always in effect and its terms cannot be overridden (ETSI GS CIM
 * 009 §5.5.7 and Annex B: the core context is implicitly included and, being `@protected`, applied
 * last). Every reference to a core-context URL, at any depth, is therefore dropped from its place
 * and the core context object is appended once at the end.
 *
 * A relative reference is refused, except the path under which this broker serves one of its own
 * @contexts (see {@link ContextDocumentLoader.isLocalReference}), which it loads from its store.
 *
 * Invalid values (numbers, booleans, other relative URLs, nested arrays, too deep, cycles) throw
 * BadRequestData (400); unreachable contexts throw LdContextNotAvailable (503) from the loader.
 */
export async function resolveContext(
  value: unknown,
  loader: ContextDocumentLoader,
  opts: ResolveOptions = {},
): Promise<object[]> {
  if (value === null) throw bad("@context must not be null");
  const out: object[] = [];
  const state = { maxDepth: opts.maxDepth ?? 8, maxContexts: opts.maxContexts ?? 64, onUrl: opts.onUrl };
  if (value !== undefined) await flatten(value, loader, out, [], state, true);
  const core = await loader.load(CORE_CONTEXT_URL);
  const coreValue = core["@context"];
  if (isJsonObject(coreValue)) out.push(coreValue);
  else if (Array.isArray(coreValue)) for (const c of coreValue) if (isJsonObject(c)) out.push(c);
  return out;
}

interface State {
  maxDepth: number;
  maxContexts: number;
  onUrl?: (url: string) => void;
}

async function flatten(
  value: unknown,
  loader: ContextDocumentLoader,
  out: object[],
  chain: string[],
  state: State,
  arrayAllowed: boolean,
): Promise<void> {
  if (Array.isArray(value)) {
    if (!arrayAllowed) throw bad("@context arrays must not be nested");
    for (const item of value) await flatten(item, loader, out, chain, state, false);
    return;
  }
  if (value === null) {
    out.length = 0;
    return;
  }
  if (isJsonObject(value)) {
    if (out.length >= state.maxContexts) throw bad(`@context has more than ${state.maxContexts} contexts`);
    out.push(value);
    return;
  }
  if (typeof value !== "string") {
    throw bad(`@context entries must be URLs or objects, got ${typeof value}`, { value });
  }
  if (!isAbsoluteUrl(value) && !isOwnPath(value, loader))
    throw bad(`@context URL must be absolute: "${value}"`, { value });
  state.onUrl?.(value);
  if (isCoreContextUrl(value)) return;
  if (chain.includes(value)) throw bad(`@context ${value} includes itself`, { chain: [...chain, value] });
  if (chain.length >= state.maxDepth)
    throw bad(`@context nesting deeper than ${state.maxDepth}`, { url: value });
  const doc = await loader.load(value);
  await flatten(doc["@context"], loader, out, [...chain, value], state, true);
}

/** A root-relative path (not `//host/...`) that names one of this broker's own @contexts. */
function isOwnPath(ref: string, loader: ContextDocumentLoader): boolean {
  return ref.startsWith("/") && !ref.startsWith("//") && loader.isLocalReference?.(ref) === true;
}
