import Ajv, { type ValidateFunction } from "ajv";
import { expect } from "chai";
import { http } from "./test-app";

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};

/**
 * A client of REST variant A that checks every JSON response against the service's own OpenAPI
 * document (/v1/openapi.json): 200 bodies against the operation's response schema, errors against
 * the Error schema. Paths are matched to the document's templates.
 */
export class RestAClient {
  doc!: Doc;
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Every (operation, status) checked, for the coverage assertion. */
  readonly checked = new Set<string>();

  constructor(readonly base: string) {}

  async init(): Promise<void> {
    const r = await http(this.base, "GET", "/v1/openapi.json");
    expect(r.status).to.equal(200);
    this.doc = r.body as Doc;
    this.ajv.addSchema(this.doc.components.schemas.Error as object, "#/components/schemas/Error");
    this.ajv.addFormat("date-time", true);
  }

  /** The document's path template that `path` (without query, under /v1) matches. */
  template(path: string): string {
    const p = path.replace(/^\/v1/, "").split("?")[0];
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

  /** Holds one response got by other means (a multipart POST, a binary GET) to the document. */
  check(method: string, path: string, status: number, type: string, body: unknown): void {
    method = method.toLowerCase();
    const t = this.template(path);
    const op = this.doc.paths[t][method];
    expect(op, `${method} ${t} in the OpenAPI document`).to.not.equal(undefined);
    const resp = op.responses[String(status)];
    expect(resp, `${method} ${t} documents status ${status}`).to.not.equal(undefined);
    if (status === 204) {
      expect(resp.content, `${method} ${t} 204 has no body`).to.equal(undefined);
      expect(body).to.equal(undefined);
      this.checked.add(`${method} ${t} ${status}`);
      return;
    }
    if (!type.includes("json")) {
      expect(Object.keys(resp.content ?? {})).to.include(type.split(";")[0]);
      this.checked.add(`${method} ${t} ${status}`);
      return;
    }
    const key = `${method} ${t} ${status}`;
    let v = this.compiled.get(key);
    if (!v)
      this.compiled.set(key, (v = this.ajv.compile(resp.content!["application/json"].schema as object)));
    const ok = v(body);
    expect(ok, `${key}: ${JSON.stringify(v.errors)} in ${JSON.stringify(body).slice(0, 400)}`).to.equal(true);
    this.checked.add(key);
  }
}
