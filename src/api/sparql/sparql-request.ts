import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";
import { readBody } from "../http/read-body";

/** Parameters of the SPARQL protocol this service does not implement (it queries one tenant's dataset). */
const DATASET_PARAMS = ["default-graph-uri", "named-graph-uri", "using-graph-uri", "using-named-graph-uri"];

const READ_ONLY =
  "SPARQL Update is not accepted: /sparql is a read-only query service; write through the NGSI-LD API";

/**
 * The query text of a SPARQL 1.1 Protocol request (§2.1.1 GET `?query=`, §2.1.2 POST form-encoded,
 * §2.1.3 POST `application/sparql-query`). Updates (§2.2) are refused with 400; another body media
 * type is 415; a missing or repeated `query` is 400.
 */
export async function readQueryText(
  ctx: Context,
  maxBodyBytes: number,
  bodyTimeoutMs?: number,
): Promise<string> {
  let params: URLSearchParams;
  if (ctx.method === "GET") {
    params = new URLSearchParams(ctx.querystring);
  } else {
    const type = (ctx.get("Content-Type").split(";")[0] || "").trim().toLowerCase();
    const body = await readBody(ctx, maxBodyBytes, bodyTimeoutMs);
    if (type === "application/sparql-query") {
      rejectDatasetParams(new URLSearchParams(ctx.querystring));
      return nonEmpty(body);
    }
    if (type === "application/sparql-update") throw badRequest(READ_ONLY);
    if (type !== "application/x-www-form-urlencoded") {
      throw new AppError(
        "UnsupportedMediaType",
        `Content-Type ${type || "(none)"} is not supported: send application/sparql-query or application/x-www-form-urlencoded`,
      );
    }
    params = new URLSearchParams(body);
  }
  if (params.has("update")) throw badRequest(READ_ONLY);
  rejectDatasetParams(params);
  const queries = params.getAll("query");
  if (queries.length !== 1) {
    throw badRequest(
      queries.length === 0 ? "The query parameter is missing" : "Exactly one query parameter is allowed",
      { parameter: "query" },
    );
  }
  return nonEmpty(queries[0]);
}

function rejectDatasetParams(params: URLSearchParams): void {
  for (const p of DATASET_PARAMS) {
    if (params.has(p)) {
      throw badRequest(
        `${p} is not supported: the dataset is the tenant's graph (select it with NGSILD-Tenant); use GRAPH in the query`,
        { parameter: p },
      );
    }
  }
}

function nonEmpty(text: string): string {
  if (text.trim() === "") throw badRequest("The SPARQL query is empty", { parameter: "query" });
  return text;
}

/** The refusal of an update sent as a query. */
export function updateRefused(): AppError {
  return badRequest(READ_ONLY);
}
