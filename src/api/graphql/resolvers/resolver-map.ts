import type { GraphQLFieldResolver, GraphQLSchema } from "graphql";
import { isObjectType } from "graphql";
import { checkDeadline } from "../deadline";

/** Field resolvers per type name; a Subscription field gives `subscribe` and optionally `resolve`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyResolver = GraphQLFieldResolver<any, any, any>;
export type Resolvers = Record<
  string,
  Record<string, AnyResolver | { subscribe: AnyResolver; resolve?: AnyResolver }>
>;

/**
 * Puts the resolvers on the fields of a schema built from SDL (schema-first without a framework);
 * a resolver for a field the SDL lacks is a programming error and throws at start.
 */
export function attachResolvers(schema: GraphQLSchema, ...maps: Resolvers[]): void {
  for (const map of maps) {
    for (const [typeName, fields] of Object.entries(map)) {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) throw new Error(`GraphQL resolvers for unknown type ${typeName}`);
      const defs = type.getFields();
      for (const [name, r] of Object.entries(fields)) {
        const def = defs[name];
        if (!def) throw new Error(`GraphQL resolver for unknown field ${typeName}.${name}`);
        if (typeof r === "function") def.resolve = withDeadline(r);
        else {
          def.subscribe = r.subscribe;
          def.resolve = r.resolve ?? ((v: unknown) => v);
        }
      }
    }
  }
}

/** `r` failing with QUERY_TIMEOUT once its operation's time is up (the context's `deadline`). */
function withDeadline(r: AnyResolver): AnyResolver {
  return (source, args, context, info) => {
    checkDeadline(context);
    return r(source, args, context, info);
  };
}
