import type Router from "@koa/router";
import type { Context } from "koa";
import {
  DEFAULT_SPARQL_MAX_PER_PRINCIPAL,
  DEFAULT_SPARQL_MAX_QUERY_LENGTH,
  DEFAULT_SPARQL_QUEUE_PER_PRINCIPAL,
} from "../../config/config";
import { AppError, badRequest } from "../../errors";
import { negotiateFormat, queryFormOf, GRAPH_FORMATS, SOLUTION_FORMATS } from "../../rdf/sparql-results";
import type { SparqlAnswer, SparqlQuery } from "../../store/sparql/sparql-query";
import { requestOf } from "../http/request-context";
import { tenantOf } from "../http/tenant";
import { PrincipalSlots } from "./principal-slots";
import { readQueryText, updateRefused } from "./sparql-request";
import { checkSparqlText, DEFAULT_SPARQL_LOGICAL, DEFAULT_SPARQL_NESTING } from "./query-limits";

/** What the SPARQL face needs: something that answers a query (the store's engine). */
export interface SparqlQueryService {
  query(q: SparqlQuery): Promise<SparqlAnswer>;
}

/** Options of the SPARQL face. */
export interface SparqlRouteOptions {
  maxBodyBytes: number;
  /** SPARQL_MAX_ROWS. */
  maxRows: number;
  /** BODY_READ_TIMEOUT. */
  bodyTimeoutMs?: number;
  /** SPARQL_MAX_QUERY_LENGTH: characters of a query text. */
  maxQueryLength?: number;
  /** SPARQL_MAX_PER_PRINCIPAL: queries one principal may have running (default: the setting's). */
  maxPerPrincipal?: number;
  /** SPARQL_QUEUE_PER_PRINCIPAL: queries of one principal that may wait (default: the setting's). */
  queuePerPrincipal?: number;
  /** Seconds a refused query is told to wait (Retry-After); default 5. */
  retryAfterS?: number;
}

/**
 * The SPARQL endpoint `/sparql` (docs/sparql.md; SPARQL 1.1 Protocol §2.1): GET and POST queries,
 * answers in JSON, XML, CSV, TSV (SELECT, ASK) or Turtle, N-Triples, JSON-LD (CONSTRUCT, DESCRIBE) by
 * content negotiation, over the dataset of the tenant in `NGSILD-Tenant`. Read-only: updates get 400.
 * An answer cut at SPARQL_MAX_ROWS says so in `X-SPARQL-MaxRows` (as Virtuoso does). Each principal
 * (each client address when auth is off) runs at most SPARQL_MAX_PER_PRINCIPAL queries at once.
 */
export function registerSparqlRoutes(
  router: Router,
  service: SparqlQueryService,
  opts: SparqlRouteOptions,
): void {
  const slots = new PrincipalSlots(
    opts.maxPerPrincipal ?? DEFAULT_SPARQL_MAX_PER_PRINCIPAL,
    opts.queuePerPrincipal ?? DEFAULT_SPARQL_QUEUE_PER_PRINCIPAL,
    opts.retryAfterS ?? 5,
  );
  const handle = async (ctx: Context): Promise<void> => {
    const tenant = tenantOf(ctx);
    const maxLength = opts.maxQueryLength ?? DEFAULT_SPARQL_MAX_QUERY_LENGTH;
    // a body of more than 3 bytes (UTF-8) per allowed character is too long whatever it holds: 413 unread
    const maxBody = Math.min(opts.maxBodyBytes, 3 * maxLength + 64);
    const sparql = await readQueryText(ctx, maxBody, opts.bodyTimeoutMs);
    checkSparqlText(sparql, {
      maxLength,
      maxNesting: DEFAULT_SPARQL_NESTING,
      maxLogical: DEFAULT_SPARQL_LOGICAL,
    });
    const form = queryFormOf(sparql);
    if (form === "UPDATE") throw updateRefused();
    // no query form: refused here, before the store parses it
    if (form === "UNKNOWN") {
      throw badRequest("SPARQL query refused: it must be a SELECT, ASK, CONSTRUCT or DESCRIBE query");
    }
    const format = negotiateFormat(form, ctx.get("Accept"));
    if (!format) {
      const formats = form === "CONSTRUCT" || form === "DESCRIBE" ? GRAPH_FORMATS : SOLUTION_FORMATS;
      const offered = [...new Set(formats.map((f) => f.mediaType))];
      throw new AppError(
        "NotAcceptable",
        `No acceptable format for a ${form} answer; offered: ${offered.join(", ")}`,
      );
    }
    const answer = await slots.run(slotKey(ctx), () =>
      service.query({ tenant, sparql, form, format: format.kind, maxRows: opts.maxRows }),
    );
    ctx.status = 200;
    ctx.type = `${format.mediaType}; charset=utf-8`;
    ctx.set("Vary", "Accept");
    if (answer.truncated) ctx.set("X-SPARQL-MaxRows", String(opts.maxRows));
    ctx.body = answer.body;
  };
  router.get("/sparql", handle);
  router.post("/sparql", handle);
}

/** Whose slots a query takes: its principal, or its client address when auth is off. */
function slotKey(ctx: Context): string {
  const p = requestOf(ctx).principal;
  return !p || p.kind === "anonymous" ? `address:${ctx.ip}` : `${p.kind}:${p.id}`;
}
