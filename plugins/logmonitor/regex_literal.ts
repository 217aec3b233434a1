/**
 * The longest piece of plain text that every match of a regular expression must contain (as
 * grep does), so a search can look for those bytes first and run the expression only on the
 * lines that hold them. Conservative: any construct not understood yields no literal.
 *
 * @module
 */
import { hasCaseVariants } from "./case_variants.ts";

/** Characters after `\` that stand for themselves. */
const ESCAPED_SELF = new Set([..."\\/^$.*+?()[]{}|-=!:,<>#&~'\"`@%; "]);

/** Index just after the group or class starting at `i` (`(`…`)` or `[`…`]`), or -1. */
function skipBracket(p: string, i: number): number {
  if (p[i] === "[") {
    let j = i + 1;
    if (p[j] === "^") j++;
    if (p[j] === "]") j++;
    for (; j < p.length; j++) {
      if (p[j] === "\\") j++;
      else if (p[j] === "]") return j + 1;
    }
    return -1;
  }
  let depth = 0;
  for (let j = i; j < p.length; j++) {
    const c = p[j];
    if (c === "\\") j++;
    else if (c === "[") {
      const end = skipBracket(p, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j + 1;
  }
  return -1;
}

/** Length of a quantifier at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, plus a lazy `?`) and whether it allows zero. */
function quantifier(p: string, i: number): { length: number; optional: boolean } | null {
  const c = p[i];
  let length = 0;
  let optional = false;
  if (c === "*" || c === "?") [length, optional] = [1, true];
  else if (c === "+") length = 1;
  else if (c === "{") {
    const m = /^\{(\d+)(,\d*)?\}/.exec(p.slice(i));
    if (!m) return null;
    length = m[0].length;
    optional = Number(m[1]) === 0;
  } else return null;
  if (p[i + length] === "?") length++;
  return { length, optional };
}

/**
 * The longest required literal of `pattern` (at least `minLength` characters), or null.
 * With `ignoreCase`, a literal holding characters with other case forms beyond ASCII is not
 * used (ASCII folding would miss matches).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requiredLiteral } from "./regex_literal.ts";
 * assert.equal(requiredLiteral("timeout after [0-9]+ retries", true), "timeout after ");
 * assert.equal(requiredLiteral("a|b", false), null);
 * ```
 */
export function requiredLiteral(
  pattern: string,
  ignoreCase: boolean,
  minLength = 3,
): string | null {
  const runs: string[] = [];
  let run = "";
  const cut = () => {
    if (run !== "") runs.push(run);
    run = "";
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    let atom: string | null = null;
    let next = i + 1;
    if (c === "|") return null;
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e === undefined) return null;
      next = i + 2;
      atom = ESCAPED_SELF.has(e) ? e : null;
    } else if (c === "(" || c === "[") {
      next = skipBracket(pattern, i);
      if (next < 0) return null;
    } else if (c === ")") {
      return null;
    } else if (!".^$*+?{}".includes(c)) {
      const cp = pattern.codePointAt(i)!;
      atom = String.fromCodePoint(cp);
      next = i + atom.length;
    }
    const q = quantifier(pattern, next);
    if (q) next += q.length;
    if (atom === null || (q && q.optional)) {
      cut();
    } else {
      run += atom;
      if (q) cut();
    }
    i = next;
  }
  cut();
  const usable = runs.filter((r) =>
    r.length >= minLength && !(ignoreCase && [...r].some(hasCaseVariants))
  );
  if (usable.length === 0) return null;
  return usable.reduce((a, b) => (b.length > a.length ? b : a));
}

/** Splits `pattern` at its top-level `|` (outside groups and classes), or null if malformed. */
function topLevelBranches(pattern: string): string[] | null {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "(" || c === "[") {
      const end = skipBracket(pattern, i);
      if (end < 0) return null;
      i = end - 1;
    } else if (c === "|") {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out;
}

/**
 * Texts of which every match contains at least one: the required literal, or one per branch
 * of a top-level alternation (also inside one group that is the whole pattern), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requiredLiterals } from "./regex_literal.ts";
 * assert.equal(requiredLiterals("(checksum|resend)", true)?.join(), "checksum,resend");
 * ```
 */
export function requiredLiterals(pattern: string, ignoreCase: boolean): string[] | null {
  const single = requiredLiteral(pattern, ignoreCase);
  if (single !== null) return [single];
  let p = pattern;
  const group = /^\((\?:)?/.exec(p);
  if (group && skipBracket(p, 0) === p.length) p = p.slice(group[0].length, -1);
  const branches = topLevelBranches(p);
  if (!branches || branches.length < 2) return null;
  const literals = branches.map((b) => requiredLiteral(b, ignoreCase));
  return literals.every((l) => l !== null) ? literals as string[] : null;
}
