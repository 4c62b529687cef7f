import { RE2JS } from "re2js";
import { badRequest } from "../../errors";

/** Longest regular expression a client may send (idPattern, `q` `~=`, a subscription's idPattern). */
export const MAX_PATTERN_LENGTH = 1024;

/** A compiled client pattern: `test` is true when it matches some part of the text, as RegExp#test. */
export interface UserPattern {
  readonly source: string;
  test(text: string): boolean;
}

/**
 * Compiles a client's regular expression (ETSI GS CIM 009 v1.8 §4.9 `RegExp`, ECMAScript syntax) with
 * RE2 semantics (re2js): matching takes time linear in the text, whatever the pattern, so one request
 * cannot hold the main thread. What RE2 does not offer (lookarounds, backreferences, repeat counts over
 * 1000) is refused with 400 BadRequestData, as is a pattern longer than MAX_PATTERN_LENGTH. `(?i)` in
 * front makes it case-insensitive. `parameter` names the input in the error.
 */
export function compileUserPattern(pattern: string, parameter: string): UserPattern {
  const fail = (why: string) =>
    badRequest(`${parameter} is not an accepted regular expression: ${why}`, { parameter, pattern });
  if (pattern.length > MAX_PATTERN_LENGTH) throw fail(`it is longer than ${MAX_PATTERN_LENGTH} characters`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (e) {
    throw fail(((e as Error).message || "syntax error").slice(0, 200));
  }
  return { source: pattern, test: (text) => re.test(text) };
}
