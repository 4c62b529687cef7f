import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";

/** Most tokens one document may hold: a larger one is refused before it is parsed further. */
export const MAX_TOKENS = 100_000;
/** Largest `limit` a list field takes (docs/rest.md "Conventions"). */
export const MAX_PAGE = 100;
/** Items a list without a `limit` argument is counted as (the zones, the stations). */
const UNSIZED_LIST = 25;
/**
 * What an aliased field adds to the cost: each alias runs its field's resolver once more (aliases are
 * never merged), where a repeated field without an alias is one execution.
 */
export const ALIAS_COST = 10;

/**
 * A query with more than `maxAliases` aliased fields (fragments counted where they are spread) is refused
 * (TOO_MANY_ALIASES): a thousand aliases of one lookup is a thousand lookups and a large result, for a
 * small document.
 */
export function aliasLimit(maxAliases: number): ValidationRule {
  return (ctx: ValidationContext): ASTVisitor => ({
    OperationDefinition(op) {
      const aliases = aliasesOf(ctx, op.selectionSet, new Map(), new Set());
      if (aliases > maxAliases) {
        ctx.reportError(
          new GraphQLError(`The query has ${aliases} aliased fields; at most ${maxAliases} are allowed`, {
            nodes: [op],
            extensions: { code: "TOO_MANY_ALIASES", aliases, maxAliases },
          }),
        );
      }
    },
  });
}

/** Aliased fields of a selection set, each fragment counted once per spread (its own count memoized). */
function aliasesOf(
  ctx: ValidationContext,
  set: SelectionSetNode,
  memo: Map<string, number>,
  seen: Set<string>,
): number {
  let n = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.alias && sel.alias.value !== sel.name.value) n++;
      if (sel.selectionSet) n += aliasesOf(ctx, sel.selectionSet, memo, seen);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) n += aliasesOf(ctx, sel.selectionSet, memo, seen);
    else {
      const name = sel.name.value;
      let k = memo.get(name);
      if (k === undefined) {
        const frag = fragment(ctx, name, seen);
        k = frag ? aliasesOf(ctx, frag.selectionSet, memo, new Set([...seen, name])) : 0;
        memo.set(name, k);
      }
      n += k;
    }
  }
  return n;
}

/** A query deeper than `maxDepth` fields is refused (QUERY_TOO_DEEP). */
export function depthLimit(maxDepth: number): ValidationRule {
  return (ctx: ValidationContext): ASTVisitor => ({
    OperationDefinition(op) {
      const depth = depthOf(ctx, op.selectionSet, new Set());
      if (depth > maxDepth) {
        ctx.reportError(
          new GraphQLError(`The query is ${depth} levels deep; at most ${maxDepth} are allowed`, {
            nodes: [op],
            extensions: { code: "QUERY_TOO_DEEP", depth, maxDepth },
          }),
        );
      }
    },
  });
}

/**
 * A query whose estimated result exceeds `maxCost` nodes is refused (QUERY_TOO_COMPLEX): each field
 * costs 1 and a field with a `limit` argument multiplies what lies under it by that limit (the
 * largest page when the limit is a variable, 50 when absent), a list without `limit` by 25 (a
 * connection's `edges` by 1: its connection's limit counts them); an aliased field adds {@link ALIAS_COST}.
 */
export function costLimit(maxCost: number): ValidationRule {
  return (ctx: ValidationContext): ASTVisitor => ({
    OperationDefinition(op) {
      const rootType =
        op.operation === "query"
          ? ctx.getSchema().getQueryType()
          : op.operation === "mutation"
            ? ctx.getSchema().getMutationType()
            : ctx.getSchema().getSubscriptionType();
      const cost = costOf(ctx, op.selectionSet, rootType?.getFields() ?? {}, new Set());
      if (cost > maxCost) {
        ctx.reportError(
          new GraphQLError(`The query asks for about ${cost} nodes; at most ${maxCost} are allowed`, {
            nodes: [op],
            extensions: { code: "QUERY_TOO_COMPLEX", cost, maxCost },
          }),
        );
      }
    },
  });
}

type Fields = Record<
  string,
  { type: GraphQLOutputType; args: readonly { name: string; defaultValue?: unknown }[] }
>;

function costOf(ctx: ValidationContext, set: SelectionSetNode, fields: Fields, seen: Set<string>): number {
  let total = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) total += fieldCost(ctx, sel, fields, seen);
    else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = sel.typeCondition ? ctx.getSchema().getType(sel.typeCondition.name.value) : undefined;
      total += costOf(
        ctx,
        sel.selectionSet,
        t && "getFields" in t ? (t.getFields() as Fields) : fields,
        seen,
      );
    } else {
      const frag = fragment(ctx, sel.name.value, seen);
      if (!frag) continue;
      const t = ctx.getSchema().getType(frag.typeCondition.name.value);
      total += costOf(
        ctx,
        frag.selectionSet,
        t && "getFields" in t ? (t.getFields() as Fields) : fields,
        new Set([...seen, frag.name.value]),
      );
    }
  }
  return total;
}

function fieldCost(ctx: ValidationContext, f: FieldNode, fields: Fields, seen: Set<string>): number {
  const own = f.alias && f.alias.value !== f.name.value ? 1 + ALIAS_COST : 1;
  const def = fields[f.name.value];
  if (!def || !f.selectionSet) return own;
  const named = getNamedType(def.type);
  const sub = "getFields" in named ? (named.getFields() as Fields) : {};
  const inner = costOf(ctx, f.selectionSet, sub, seen);
  let factor = 1;
  if (def.args.some((a) => a.name === "limit")) factor = limitOf(f);
  // a connection's `edges` are sized by the connection's `limit`, counted already
  else if (isListType(getNullableType(def.type)) && f.name.value !== "edges") factor = UNSIZED_LIST;
  return own + factor * inner;
}

function limitOf(f: FieldNode): number {
  const arg = f.arguments?.find((a) => a.name.value === "limit");
  if (!arg) return 50;
  if (arg.value.kind === Kind.INT) return Math.max(0, Math.min(MAX_PAGE, Number(arg.value.value)));
  return MAX_PAGE;
}

/** Depth of a selection set in fields (fragments followed once per path). */
function depthOf(ctx: ValidationContext, set: SelectionSetNode, seen: Set<string>): number {
  let max = 0;
  for (const sel of set.selections) {
    let d = 0;
    if (sel.kind === Kind.FIELD) d = 1 + (sel.selectionSet ? depthOf(ctx, sel.selectionSet, seen) : 0);
    else if (sel.kind === Kind.INLINE_FRAGMENT) d = depthOf(ctx, sel.selectionSet, seen);
    else {
      const frag = fragment(ctx, sel.name.value, seen);
      if (frag) d = depthOf(ctx, frag.selectionSet, new Set([...seen, frag.name.value]));
    }
    if (d > max) max = d;
  }
  return max;
}

/** A fragment not yet on the path (cycles are reported by graphql's own NoFragmentCycles rule). */
function fragment(
  ctx: ValidationContext,
  name: string,
  seen: Set<string>,
): FragmentDefinitionNode | undefined {
  if (seen.has(name)) return undefined;
  return ctx.getFragment(name) ?? undefined;
}
