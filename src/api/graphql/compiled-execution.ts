import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";

/** An operation's state: the runs it has had on graphql-js, its compiled form, or null if it does not compile. */
type Slot = number | CompiledQuery | null;

/**
 * graphql's `execute` for queries and mutations through graphql-jit: an operation of a validated
 * document is compiled once into a function that resolves its fields without graphql-js's per-field
 * lookups, argument coercion and type checks (the larger part of a page of 50 cameras' CPU).
 * Compiling costs about as much as validating, so an operation is compiled on its second run: a
 * one-off document (or a flood of distinct ones) runs on graphql-js as before. Variables are checked
 * by graphql-js first, so that a bad one is reported in its words (the scalar's own message and
 * code). Subscriptions run on graphql-js. Compiled functions are kept per document object, so they
 * live as long as the {@link DocumentCache} keeps the document.
 */
export class CompiledExecution {
  private readonly slots = new WeakMap<DocumentNode, Map<string, Slot>>();

  /** @param compileOnRun the run of an operation that compiles it (1: the first). */
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly compileOnRun = 2,
  ) {}

  /** The compiled form of one operation of a document, once it is due; undefined before or if it does not compile. */
  compiled(document: DocumentNode, operationName?: string | null): CompiledQuery | undefined {
    let byName = this.slots.get(document);
    if (!byName) this.slots.set(document, (byName = new Map()));
    const key = operationName ?? "";
    const slot = byName.get(key) ?? 0;
    if (slot === null) return undefined;
    if (typeof slot !== "number") return slot;
    if (slot + 1 < this.compileOnRun) {
      byName.set(key, slot + 1);
      return undefined;
    }
    const c = compileQuery(this.schema, document, operationName ?? undefined);
    const compiled = isCompiledQuery(c) ? c : null;
    byName.set(key, compiled);
    return compiled ?? undefined;
  }

  /** A drop-in for graphql's `execute` (the schema must be the one given to the constructor). */
  readonly execute = (args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult => {
    const op = getOperationAST(args.document, args.operationName);
    if (args.schema !== this.schema || !op || op.operation === "subscription") return execute(args);
    const c = this.compiled(args.document, args.operationName);
    if (!c) return execute(args);
    if (op.variableDefinitions?.length) {
      const vars = getVariableValues(this.schema, op.variableDefinitions, args.variableValues ?? {}, {
        maxErrors: 50,
      });
      if (vars.errors) return { errors: vars.errors };
    }
    const result = c.query(args.rootValue, args.contextValue, args.variableValues);
    return isPromise(result) ? result.then(errorsFirst) : errorsFirst(result);
  };
}

/**
 * A compiled query's result shaped as graphql-js's: `errors` before `data`, and each error with the
 * original error graphql-js would give it.
 */
function errorsFirst(r: ExecutionResult): ExecutionResult {
  if (!r.errors) return r;
  const { errors, ...rest } = r;
  return { errors: errors.map(withOriginal), ...rest };
}

const NON_NULL = /^Cannot return null for non-nullable field /;

/**
 * graphql-jit reports a field's bad value (null in a non-null field, a value its type cannot
 * serialize) without an originalError; graphql-js keeps a plain Error behind the first (a server
 * fault: INTERNAL_ERROR) and the type's GraphQLError behind the second. formatGraphqlError reads it.
 */
function withOriginal(e: GraphQLError): GraphQLError {
  if (e.originalError) return e;
  const original = NON_NULL.test(e.message) ? new Error(e.message) : new GraphQLError(e.message);
  const g = new GraphQLError(e.message, { path: e.path, originalError: original });
  return Object.assign(g, { locations: e.locations });
}

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown }).then === "function";
}
