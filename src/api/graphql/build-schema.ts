import fs from "node:fs";
import path from "node:path";
import { buildSchema, type GraphQLScalarType, type GraphQLSchema } from "graphql";
import { mutationResolvers } from "./resolvers/mutation";
import { queryResolvers } from "./resolvers/query";
import { attachResolvers } from "./resolvers/resolver-map";
import { subscriptionResolvers } from "./resolvers/subscription";
import { dateTimeScalar, typeResolvers } from "./resolvers/types";

/** The SDL file: src/api/graphql/schema.graphql, found from src/ (tests) or dist/src/ (the build). */
export function schemaFile(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, "src", "api", "graphql", "schema.graphql");
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("src/api/graphql/schema.graphql not found above " + __dirname);
    dir = parent;
  }
}

/** The executable schema: the SDL with its resolvers and the DateTime scalar attached. */
export function buildGraphqlSchema(): GraphQLSchema {
  const schema = buildSchema(fs.readFileSync(schemaFile(), "utf8"));
  const dt = schema.getType("DateTime") as GraphQLScalarType;
  Object.assign(dt, dateTimeScalar);
  attachResolvers(schema, queryResolvers, typeResolvers, mutationResolvers, subscriptionResolvers);
  return schema;
}
