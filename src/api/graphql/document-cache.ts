import {
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type Source,
  type ValidationRule,
} from "graphql";

/**
 * Parsed and validated documents kept by query text: a client repeats its few queries, and parsing
 * plus validating one was the largest part of a small query's CPU (graphql's visitor). A document is
 * validated once per schema and rule set; both caches are bounded.
 */
export class DocumentCache {
  private readonly parsed = new Map<string, DocumentNode>();
  private readonly validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();

  constructor(
    private readonly parseText: (source: string | Source) => DocumentNode,
    private readonly max = 500,
  ) {}

  /** graphql's parse, cached by text (a parse error is not cached: it is thrown each time). */
  readonly parse = (source: string | Source): DocumentNode => {
    const text = typeof source === "string" ? source : source.body;
    const hit = this.parsed.get(text);
    if (hit) return hit;
    const doc = this.parseText(source);
    if (this.parsed.size >= this.max) this.parsed.delete(this.parsed.keys().next().value as string);
    this.parsed.set(text, doc);
    return doc;
  };

  /** graphql's validate, cached per document (the schema and the rules are the face's own, fixed). */
  readonly validate = (
    schema: GraphQLSchema,
    doc: DocumentNode,
    rules?: readonly ValidationRule[],
  ): readonly GraphQLError[] => {
    const hit = this.validated.get(doc);
    if (hit) return hit;
    const errors = validate(schema, doc, rules);
    this.validated.set(doc, errors);
    return errors;
  };
}
