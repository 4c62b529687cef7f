import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import { expect } from "chai";
import { http } from "./test-app";

type Op = { tags: string[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, unknown> };
};

/**
 * A client of one REST variant that holds every response to the service's own OpenAPI 3.1 document
 * (`<prefix>/openapi.json`, JSON Schema 2020-12): the operation must document the status, a JSON body
 * must match its schema, a binary body its media type. Paths are matched to the document's templates.
 */
export class OpenApiClient {
  doc!: Doc;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Every (operation, status) checked, for the coverage assertion. */
  readonly checked = new Set<string>();

  /** `prefix`: the variant's path prefix, `/v1` or `/api/v1`. */
  constructor(
    readonly base: string,
    private readonly prefix: string,
  ) {}

  async init(): Promise<void> {
    const r = await http(this.base, "GET", `${this.prefix}/openapi.json`);
    expect(r.status).to.equal(200);
    this.doc = r.body as Doc;
    expect(this.doc.openapi).to.equal("3.1.0");
    this.ajv.addSchema(this.doc.components.schemas.Error as object, "#/components/schemas/Error");
    this.ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)) && /T/.test(s));
  }

  /** The document's path template that `path` (under the prefix, without query) matches. */
  template(path: string): string {
    const p = (path.startsWith(this.prefix) ? path.slice(this.prefix.length) : path).split("?")[0];
    // a literal path (/accidents/report) before a template it also fits (/accidents/{accident_id})
    const hit =
      Object.keys(this.doc.paths).find((t) => t === p) ??
      Object.keys(this.doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(p));
    if (!hit) throw new Error(`no OpenAPI path for ${p}`);
    return hit;
  }

  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const r = await http(this.base, method, path, body, headers);
    this.check(method, path, r.status, r.headers.get("content-type") ?? "", r.body);
    return r;
  }

  get(path: string) {
    return this.call("GET", path);
  }

  /** GET that must answer 200; returns the body. */
  async ok<T>(path: string): Promise<T> {
    const r = await this.get(path);
    expect(r.status, `${path}: ${r.text.slice(0, 300)}`).to.equal(200);
    return r.body as T;
  }

  /** Holds one response got by other means (a multipart POST, a binary GET) to the document. */
  check(method: string, path: string, status: number, type: string, body: unknown): void {
    method = method.toLowerCase();
    const t = this.template(path);
    const op = this.doc.paths[t][method];
    expect(op, `${method} ${t} in the OpenAPI document`).to.not.equal(undefined);
    const resp = op.responses[String(status)];
    expect(resp, `${method} ${t} documents status ${status}`).to.not.equal(undefined);
    const key = `${method} ${t} ${status}`;
    this.checked.add(key);
    if (status === 204) {
      expect(resp.content, `${method} ${t} 204 has no body`).to.equal(undefined);
      expect(body).to.equal(undefined);
      return;
    }
    if (!type.includes("json")) {
      expect(Object.keys(resp.content ?? {})).to.include(type.split(";")[0]);
      return;
    }
    let v = this.compiled.get(key);
    if (!v)
      this.compiled.set(key, (v = this.ajv.compile(resp.content!["application/json"].schema as object)));
    expect(v(body), `${key}: ${JSON.stringify(v.errors)}\n${JSON.stringify(body).slice(0, 500)}`).to.equal(
      true,
    );
  }
}
