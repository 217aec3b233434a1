/**
 * Case-insensitive plain text with letters beyond ASCII (`über`, `Привет`, `Ωμέγα`), searched as
 * bytes like any other text: the byte kernel folds ASCII only, so the search looks for every
 * case form of a short piece of the query (its case forms written out as UTF-8, at most
 * {@linkcode MAX_FORMS} byte strings), and only the lines holding one of them are decoded and
 * tested with the whole query, case-insensitively as Unicode's simple case folding has it (what
 * `grep -i` does in a UTF-8 locale).
 *
 * @module
 */

/** Most byte strings searched for one query. */
export const MAX_FORMS = 4;

/** Case forms beyond `toLowerCase`/`toUpperCase` (the Greek final sigma, the micro sign). */
const EXTRA: Record<string, string[]> = {
  "σ": ["ς"],
  "ς": ["σ"],
  "Σ": ["ς"],
  "μ": ["µ"],
  "Μ": ["µ"],
  "µ": ["μ", "Μ"],
};

const encoder = new TextEncoder();

/** Whether a character has other case forms beyond ASCII (so ASCII folding is not enough). */
export function hasCaseVariants(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  if (code < 0x80) return false;
  return ch.toUpperCase() !== ch || ch.toLowerCase() !== ch || ch in EXTRA;
}

/**
 * The forms of one character a case-insensitive search must find, itself first (an ASCII
 * character alone: the byte kernel folds it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseForms } from "./case_variants.ts";
 * assert.deepEqual(caseForms("ü"), ["ü", "Ü"]);
 * assert.deepEqual(caseForms("σ"), ["σ", "Σ", "ς"]);
 * ```
 */
export function caseForms(ch: string): string[] {
  if (!hasCaseVariants(ch)) return [ch];
  const forms = new Set([ch]);
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  for (const f of [lower, upper, upper.toLowerCase(), lower.toUpperCase(), ...(EXTRA[ch] ?? [])]) {
    if ([...f].length === 1) forms.add(f);
  }
  return [...forms];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** What to search for a case-insensitive query with letters beyond ASCII. */
export interface CaseVariantPlan {
  /** Byte strings of which every matching line holds one (ASCII letters to be folded). */
  needles: Uint8Array[];
  /** Whether a candidate line really holds the query in any case. */
  test(line: string): boolean;
}

/**
 * The piece of `query` to search for and the test of its candidates. The piece is chosen for
 * the most bytes at the fewest forms (each form costs one pass of the byte kernel).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseVariantPlan } from "./case_variants.ts";
 * const plan = caseVariantPlan("über");
 * assert.deepEqual(plan.needles.map((n) => new TextDecoder().decode(n)), ["ber"]);
 * assert.ok(plan.test("ÜBER alles") && !plan.test("uber"));
 * ```
 */
export function caseVariantPlan(query: string): CaseVariantPlan {
  const chars = [...query];
  const forms = chars.map(caseForms);
  let best = { score: -Infinity, from: 0, to: 1 };
  for (let i = 0; i < chars.length; i++) {
    let count = 1;
    let bytes = 0;
    for (let j = i; j < chars.length; j++) {
      count *= forms[j]!.length;
      if (count > MAX_FORMS) break;
      bytes += encoder.encode(chars[j]!).length;
      const score = Math.min(bytes, 16) - 3 * Math.log2(count);
      if (score > best.score) best = { score, from: i, to: j + 1 };
    }
  }
  let pieces = [""];
  for (const f of forms.slice(best.from, best.to)) {
    pieces = pieces.flatMap((p) => f.map((c) => p + c));
  }
  const re = new RegExp(escapeRegExp(query), "iu");
  return { needles: pieces.map((p) => encoder.encode(p)), test: (line) => re.test(line) };
}
