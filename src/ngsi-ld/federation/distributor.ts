import type { OutboundFetchFn } from "../../jobs/outbound-fetch";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { canonicalName } from "../model/canonical-names";
import type { EntityFilter } from "../query/query-filter";
import { csourceFetch, CsourceError, type CsourceRequest, type CsourceResponse } from "./csource-client";
import type { ShownEntity, SourceAnswer } from "./merge-entities";
import { modeOf, type Operation } from "./registration";
import { registrationMatches, type CompiledRegistration } from "./registration-match";
import type { RegistrationService } from "./registration-service";
import { viaOnward } from "./via";

/** Settings of distributed operations (config: FEDERATION_*). */
export interface DistributorOptions {
  /** This broker's id in `Via` headers (§6.3.18). */
  brokerId: string;
  /** Timeout of a request to a source whose registration sets no `management.timeout`, ms. */
  timeoutMs: number;
  /** The outbound policy's fetch (a source refused there is a failure, §4.3.6). */
  fetch: OutboundFetchFn;
}

/** What the incoming request passes on to the sources. */
export interface Forwarding {
  /** The incoming `Via` header. */
  via?: string;
  /** The incoming `Link` header (the request's @context), passed on so names compact alike. */
  link?: string;
}

/** A source that gave no usable answer (reported to the client, §4.3.6). */
export interface SourceFailure {
  registrationId: string;
  endpoint: string;
  status?: number;
  detail: string;
  /** The source's ProblemDetails, when it answered with one. */
  problem?: Record<string, unknown>;
}

/** One request to pass on (a write, or a read): method, path under /ngsi-ld/v1, query string, body. */
export interface WriteRequest {
  method: CsourceRequest["method"];
  path: string;
  query?: string;
  body?: string;
  contentType?: string;
}

/**
 * Distributed operations (ETSI GS CIM 009 v1.8 §4.3.6): finds the registrations relevant to an
 * operation, sends the request to each registered source at once (with the registration's tenant, its
 * contextSourceInfo as headers and `Via`), each cut at its own timeout, and gathers the answers and the
 * failures. Merging is mergeEntities'; the HTTP face decides what the client sees.
 */
export class Distributor {
  constructor(
    private readonly regs: RegistrationService,
    private readonly opts: DistributorOptions,
  ) {}

  get brokerId(): string {
    return this.opts.brokerId;
  }

  /** The registrations of `tenant` relevant to `op` on entities of `filter`. */
  matching(tenant: string, filter: EntityFilter, op: Operation): CompiledRegistration[] {
    if (this.regs.empty) return [];
    return this.regs.list(tenant).filter((cr) => registrationMatches(cr, filter, { operation: op }));
  }

  /**
   * Sends a read to every source: an entity query (array answers) or a retrieval (object answers; 404 =
   * none). `req` is the request, or what it is for each registration.
   */
  async read(
    crs: CompiledRegistration[],
    req: WriteRequest | ((cr: CompiledRegistration) => WriteRequest),
    fwd: Forwarding,
    requestCtx: CompiledContext,
  ): Promise<{ answers: SourceAnswer[]; failures: SourceFailure[] }> {
    const answers: SourceAnswer[] = [];
    const failures: SourceFailure[] = [];
    await Promise.all(
      crs.map(async (cr) => {
        try {
          const res = await this.send(cr, typeof req === "function" ? req(cr) : req, fwd);
          if (res.status === 404) return;
          if (res.status !== 200) throw new CsourceError(`answered HTTP ${res.status}`, res.status);
          const body = JSON.parse(res.text) as unknown;
          const list = (Array.isArray(body) ? body : [body]).filter(
            (e): e is ShownEntity =>
              typeof e === "object" && e !== null && typeof (e as ShownEntity).id === "string",
          );
          answers.push({ mode: modeOf(cr.record.reg), entities: list, names: namesOf(cr, requestCtx) });
        } catch (e) {
          failures.push(failureOf(cr, e));
        }
      }),
    );
    return { answers, failures };
  }

  /** Passes a write on to every source; returns the sources that did not take it all (non-2xx or 207). */
  async write(crs: CompiledRegistration[], req: WriteRequest, fwd: Forwarding): Promise<SourceFailure[]> {
    const failures: SourceFailure[] = [];
    await Promise.all(
      crs.map(async (cr) => {
        try {
          const res = await this.send(cr, req, fwd);
          // 207: the source did part of it; its BatchOperationResult says what failed
          if (res.status < 200 || res.status > 299 || res.status === 207) {
            const f = failureOf(cr, new CsourceError(`answered HTTP ${res.status}`, res.status));
            const problem = parseProblem(res.text);
            if (problem) f.problem = problem;
            failures.push(f);
          }
        } catch (e) {
          failures.push(failureOf(cr, e));
        }
      }),
    );
    return failures;
  }

  private send(cr: CompiledRegistration, req: WriteRequest, fwd: Forwarding): Promise<CsourceResponse> {
    const reg = cr.record.reg;
    const headers: Record<string, string> = {
      Accept: "application/json",
      Via: viaOnward(fwd.via, this.opts.brokerId),
    };
    if (fwd.link && req.contentType !== "application/ld+json") headers.Link = fwd.link;
    if (reg.tenant) headers["NGSILD-Tenant"] = reg.tenant;
    for (const { key, value } of reg.contextSourceInfo ?? []) headers[key] = value;
    if (req.body !== undefined) headers["Content-Type"] = req.contentType ?? "application/json";
    const q = req.query ? `?${req.query}` : "";
    return csourceFetch(
      {
        method: req.method,
        url: `${apiRoot(reg.endpoint)}${req.path}${q}`,
        headers,
        body: req.body,
        timeoutMs: reg.management?.timeout ?? this.opts.timeoutMs,
      },
      this.opts.fetch,
    );
  }
}

/** The NGSI-LD API root of a registered endpoint (§5.2.9 endpoint: the source's base URL). */
function apiRoot(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, "");
  return base.endsWith("/ngsi-ld/v1") ? base : `${base}/ngsi-ld/v1`;
}

/** The attribute names a registration provides, named as the request's context names them. */
function namesOf(cr: CompiledRegistration, ctx: CompiledContext): Set<string> | undefined {
  const out = new Set<string>();
  for (const info of cr.infos) {
    if (!info.names) return undefined;
    for (const iri of info.names) out.add(canonicalName(ctx, iri));
  }
  return out;
}

function parseProblem(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function failureOf(cr: CompiledRegistration, e: unknown): SourceFailure {
  const reg = cr.record.reg;
  const f: SourceFailure = { registrationId: reg.id, endpoint: reg.endpoint, detail: (e as Error).message };
  if (e instanceof CsourceError && e.status !== undefined) f.status = e.status;
  return f;
}
