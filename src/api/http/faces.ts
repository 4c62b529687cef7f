import type { Context, Middleware, Next } from "koa";
import type { AppError } from "../../errors";
import { problemDetails } from "./problem-details";
import { requestOf, type FaceName } from "./request-context";

/** How a face writes an error (status is set already; `err` is safe to show, see error-middleware). */
export type ErrorRenderer = (ctx: Context, err: AppError, requestId: string) => void;

/** A face as the request pipeline sees it: where it is mounted and how it renders its errors. */
export interface FaceMount {
  name: FaceName;
  /** Path prefixes the face serves, e.g. "/ngsi-ld/" (a path equal to the prefix without "/" too). */
  prefixes: readonly string[];
  renderError: ErrorRenderer;
}

/** ProblemDetails, for faces without a format of their own. */
export const renderProblem: ErrorRenderer = (ctx, err, requestId) => {
  ctx.body = problemDetails(err, requestId);
  // exactly application/json (ETSI suite 040_02_01): Koa's ctx.type would add "; charset=utf-8"
  ctx.set("Content-Type", "application/json");
};

/** True when `path` falls under `prefix` (or equals it without its trailing "/"). */
function under(path: string, prefix: string): boolean {
  return path.startsWith(prefix) || (prefix.endsWith("/") && path === prefix.slice(0, -1)) || path === prefix;
}

/** Marks a request with the face whose prefix its path falls under (the longest prefix wins). */
export function faceMarker(faces: readonly FaceMount[]): (ctx: Context) => void {
  const byPrefix = faces
    .flatMap((f) => f.prefixes.map((p) => ({ p, name: f.name })))
    .sort((a, b) => b.p.length - a.p.length);
  return (ctx: Context) => {
    const hit = byPrefix.find((x) => under(ctx.path, x.p));
    requestOf(ctx).face = hit ? hit.name : "http";
  };
}

/** {@link faceMarker} as a middleware. */
export function faceSelector(mark: (ctx: Context) => void): Middleware {
  return async (ctx: Context, next: Next) => {
    mark(ctx);
    await next();
  };
}

/**
 * Runs `inner` (a face's routes) only for paths under the face's prefixes: a request then passes
 * through the route tables of its own face, not through every face's.
 */
export function onlyUnder(prefixes: readonly string[], inner: Middleware): Middleware {
  return (ctx: Context, next: Next) => (prefixes.some((p) => under(ctx.path, p)) ? inner(ctx, next) : next());
}

/** The renderer of each face by name, ProblemDetails for the rest. */
export function renderers(faces: readonly FaceMount[]): (face: FaceName) => ErrorRenderer {
  const m = new Map<FaceName, ErrorRenderer>(faces.map((f) => [f.name, f.renderError]));
  return (face) => m.get(face) ?? renderProblem;
}
