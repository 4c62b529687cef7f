import { randomUUID } from "node:crypto";
import { AppError, badRequest, notFound } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { nowIso } from "../model/datetime";
import { isAbsoluteUri } from "../model/uri";
import { parseRegistration, patchRegistration } from "./parse-registration";
import type { RegistrationRecord } from "./registration";
import { compileRegistration, type CompiledRegistration } from "./registration-match";
import type { RegistrationRepository } from "./registration-repository";

/** Compiles an @context value (the request's, or a stored registration's). */
export type ContextCompiler = (value: unknown) => Promise<CompiledContext>;

/** Told when a registration appears (before undefined), changes, or goes (after undefined). */
export type RegistrationListener = (
  tenant: string,
  before: CompiledRegistration | undefined,
  after: CompiledRegistration | undefined,
) => void;

/**
 * Context source registration management (ETSI GS CIM 009 v1.8 §5.9.2 register, §5.9.3 update, §5.9.4
 * delete, §5.10.1 retrieve): validates, stores in the graph (durable before the answer) and keeps the
 * compiled registrations in memory, per tenant, for discovery and distributed operations.
 */
export class RegistrationService {
  private readonly tenants = new Map<string, Map<string, CompiledRegistration>>();
  private readonly listeners: RegistrationListener[] = [];
  private readonly reserved = new Set<string>();

  constructor(
    private readonly repo: RegistrationRepository,
    private readonly compile: ContextCompiler,
    private readonly log: (msg: string, fields?: object) => void = () => undefined,
    /** Why an endpoint may not be requested (the outbound policy, its name resolved), or undefined. */
    private readonly endpointRefusal: (
      url: string,
    ) => Promise<string | undefined> | string | undefined = () => undefined,
  ) {}

  /** 400 if the outbound policy refuses the registration's endpoint (link-local, the broker itself, denied). */
  private async checkEndpoint(endpoint: string): Promise<void> {
    const why = await this.endpointRefusal(endpoint);
    if (why) throw badRequest(`endpoint ${endpoint} is not allowed: ${why}`, { member: "endpoint" });
  }

  /** Loads the stored registrations (start-up); one that no longer compiles is logged and skipped. */
  async load(): Promise<number> {
    let n = 0;
    for (const record of await this.repo.loadAll()) {
      try {
        this.put(compileRegistration(record, await this.compile(record.context)), false);
        n++;
      } catch (e) {
        this.log("stored registration skipped", { id: record.reg.id, error: (e as Error).message });
      }
    }
    return n;
  }

  /** Listens to registration changes (context source registration subscriptions). */
  onChange(l: RegistrationListener): void {
    this.listeners.push(l);
  }

  /** §5.9.2: registers a context source; returns the id. 409 AlreadyExists for a taken id. */
  async create(tenant: string, body: unknown, context: unknown, ctx: CompiledContext): Promise<string> {
    const given = (body as { id?: unknown } | null)?.id;
    if (given !== undefined && !isAbsoluteUri(given)) {
      throw badRequest(`Registration id ${JSON.stringify(given)} is not a URI`, { member: "id" });
    }
    const id = (given as string | undefined) ?? `urn:ngsi-ld:ContextSourceRegistration:${randomUUID()}`;
    const key = `${tenant}\u0000${id}`;
    if (this.find(tenant, id) || this.reserved.has(key)) {
      throw new AppError("AlreadyExists", `Registration ${id} already exists`, { id });
    }
    const record: RegistrationRecord = { tenant, reg: parseRegistration(body, id, nowIso()), context };
    await this.checkEndpoint(record.reg.endpoint);
    const cr = compileRegistration(record, ctx);
    this.reserved.add(key);
    try {
      await this.repo.save(record);
    } finally {
      this.reserved.delete(key);
    }
    this.put(cr, true);
    return id;
  }

  /** A registration, or undefined. */
  find(tenant: string, id: string): CompiledRegistration | undefined {
    return this.tenants.get(tenant)?.get(id);
  }

  /** §5.10.1: one registration; 404 if unknown in this tenant. */
  get(tenant: string, id: string): CompiledRegistration {
    const cr = this.find(tenant, id);
    if (!cr) throw notFound(`Registration ${id} does not exist`, { id });
    return cr;
  }

  /** The registrations of a tenant, oldest first. */
  list(tenant: string): CompiledRegistration[] {
    return [...(this.tenants.get(tenant)?.values() ?? [])];
  }

  /** True if some tenant has a registration (distributed operations look no further otherwise). */
  get empty(): boolean {
    for (const t of this.tenants.values()) if (t.size) return false;
    return true;
  }

  /**
   * §5.9.3: applies a fragment. Names of the result are read with the fragment's @context when the
   * request named one, else with the registration's own.
   */
  async update(
    tenant: string,
    id: string,
    fragment: unknown,
    context: unknown,
    ctx: CompiledContext,
  ): Promise<void> {
    const current = this.get(tenant, id);
    const reg = patchRegistration(current.record.reg, fragment, nowIso());
    if (reg.endpoint !== current.record.reg.endpoint) await this.checkEndpoint(reg.endpoint);
    const useNew = context !== undefined;
    const record: RegistrationRecord = { tenant, reg, context: useNew ? context : current.record.context };
    const cr = compileRegistration(record, useNew ? ctx : current.ctx);
    await this.repo.save(record);
    this.put(cr, true);
  }

  /** §5.9.4: deletes a registration; 404 if unknown. */
  async delete(tenant: string, id: string): Promise<void> {
    const current = this.get(tenant, id);
    await this.repo.remove(tenant, id);
    this.tenants.get(tenant)?.delete(id);
    for (const l of this.listeners) l(tenant, current, undefined);
  }

  private put(cr: CompiledRegistration, tell: boolean): void {
    const { tenant, reg } = cr.record;
    let t = this.tenants.get(tenant);
    if (!t) this.tenants.set(tenant, (t = new Map()));
    const before = t.get(reg.id);
    t.set(reg.id, cr);
    if (tell) for (const l of this.listeners) l(tenant, before, cr);
  }
}
