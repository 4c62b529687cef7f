/** SPARQL results: query forms, projection, result formats and their serializers (SPARQL 1.1 Protocol). */
export { queryFormOf, isGraphForm, type QueryForm } from "./query-form";
export {
  negotiateAmong,
  negotiateFormat,
  SOLUTION_FORMATS,
  GRAPH_FORMATS,
  type ResultFormat,
} from "./media-types";
export { serializeSolutions, serializeBoolean } from "./serialize";
export type { ResultTerm, Solution } from "./result-term";
export { cutJsonSolutions, solutionsFromJson } from "./results-json-read";
