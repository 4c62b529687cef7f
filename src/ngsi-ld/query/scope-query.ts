import { evaluate, Expr, parseExpression, syntaxError } from "./expression";

/** A scope query: scope patterns joined by `;` (and) and `,` / `|` (or). */
export type ScopeQuery = Expr<string[]>;

const SEGMENT = /^[^/;,|()#+\s]+$/;

/**
 * Parses `scopeQ` (ETSI GS CIM 009 v1.8 §4.19): scopes such as `/Madrid/Gardens`, with `+` for any one
 * level and a final `#` for the scope and all below it; `/#` matches any scope. Leaves are segment lists.
 */
export function parseScopeQuery(src: string): ScopeQuery {
  return parseExpression(src, {
    parameter: "scopeQ",
    or: ",|",
    leaf: (s, pos) => {
      if (s[pos] !== "/") throw syntaxError("scopeQ", s, pos, "expected a scope starting with '/'");
      let end = pos;
      while (end < s.length && !",|;()".includes(s[end])) end++;
      const segments = s.slice(pos + 1, end).split("/");
      segments.forEach((seg, i) => {
        const ok = SEGMENT.test(seg) || seg === "+" || (seg === "#" && i === segments.length - 1);
        if (!ok) throw syntaxError("scopeQ", s, pos, "expected scope segments (names, + or a final #)");
      });
      return { leaf: segments, end };
    },
  });
}

/** True if one of the entity's scopes matches the pattern (MQTT-like levels, §4.18). */
function scopeMatches(pattern: string[], scope: string): boolean {
  if (!scope.startsWith("/")) return false;
  const levels = scope.slice(1).split("/");
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "#") return true;
    if (i >= levels.length) return false;
    if (pattern[i] !== "+" && pattern[i] !== levels[i]) return false;
  }
  return levels.length === pattern.length;
}

/** True if an entity whose scopes are `scopes` satisfies the scope query. */
export function matchesScopeQuery(q: ScopeQuery, scopes: readonly string[]): boolean {
  return evaluate(q, (p) => scopes.some((s) => scopeMatches(p, s)));
}

/** The scopes of an entity's `scope` member as a list. */
export function scopesOf(scope: unknown): string[] {
  return Array.isArray(scope)
    ? scope.filter((s): s is string => typeof s === "string")
    : typeof scope === "string"
      ? [scope]
      : [];
}
