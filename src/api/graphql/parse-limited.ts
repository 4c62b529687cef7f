import { GraphQLError, Kind, parse, visit, type DocumentNode, type Source } from "graphql";
import { MAX_TOKENS } from "./query-limits";

/**
 * graphql's parse with a ceiling on tokens, after a scan of the brace nesting: a query nested
 * thousands of levels deep is refused (QUERY_TOO_DEEP) before the recursive parser walks it. A document
 * whose text holds more than `maxAliases` aliased fields is refused (TOO_MANY_ALIASES) before it is
 * validated: validating a thousand fields takes longer than parsing them (the validation rule
 * `aliasLimit` also counts aliases in fragments where they are spread).
 */
export function parseLimited(
  maxDepth: number,
  maxAliases = Infinity,
): (source: string | Source) => DocumentNode {
  return (source) => {
    const text = typeof source === "string" ? source : source.body;
    const nesting = braceNesting(text);
    // selection sets and input objects both nest braces: allow twice the field depth
    if (nesting > 2 * maxDepth + 2) {
      throw new GraphQLError(
        `The query nests ${nesting} levels of braces; at most ${maxDepth} fields deep are allowed`,
        {
          extensions: { code: "QUERY_TOO_DEEP", maxDepth },
        },
      );
    }
    const doc = parse(source, { maxTokens: MAX_TOKENS, noLocation: false });
    const aliases = aliasCount(doc);
    if (aliases > maxAliases) {
      throw new GraphQLError(`The query has ${aliases} aliased fields; at most ${maxAliases} are allowed`, {
        extensions: { code: "TOO_MANY_ALIASES", aliases, maxAliases },
      });
    }
    return doc;
  };
}

/** Aliased fields written in a document (each once, wherever it stands). */
function aliasCount(doc: DocumentNode): number {
  let n = 0;
  visit(doc, {
    [Kind.FIELD](f) {
      if (f.alias && f.alias.value !== f.name.value) n++;
    },
  });
  return n;
}

/** Deepest `{` nesting outside string literals and comments. */
function braceNesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash escape
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 35)
      while (i < text.length && text.charCodeAt(i) !== 10) i++; // # comment
    else if (c === 123) {
      if (++depth > max) max = depth;
    } else if (c === 125) depth--;
  }
  return max;
}
