/**
 * Case-insensitive plain text with letters beyond ASCII (`über`, `Привет`, `Ωμέγα`), searched as
 * bytes like any other text, in one pass where it can: many letters' case forms differ only in
 * bit 0x20 of their UTF-8 bytes (`ü` C3 BC, `Ü` C3 9C; `и` D0 B8, `И` D0 98), so the byte kernel,
 * folding that bit of every byte, finds the longest piece of the query made of such characters
 * (`"bit5"`). Otherwise it looks for every case form of a short piece of the query (its case
 * forms written out as UTF-8, at most {@linkcode MAX_FORMS} byte strings, ASCII folded). Either
 * way only the lines found are decoded and tested with the whole query, case-insensitively as
 * Unicode's simple case folding has it (what `grep -i` does in a UTF-8 locale).
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

/** Whether all case forms of `ch` are the same bytes once bit 0x20 of each byte is set. */
export function foldsInBit5(ch: string): boolean {
  const forms = caseForms(ch).map((f) => encoder.encode(f).map((b) => b | 0x20));
  if (ch.codePointAt(0)! < 0x80 && /[a-z]/i.test(ch)) return true; // the other form: ASCII
  return forms.every((f) => f.length === forms[0]!.length && f.every((b, k) => b === forms[0]![k]));
}

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
  /** Byte strings of which every matching line holds one. */
  needles: Uint8Array[];
  /** How they compare: ASCII letters folded, or bit 0x20 of every byte (one needle). */
  fold: true | "bit5";
  /** Whether a candidate line really holds the query in any case. */
  test(line: string): boolean;
}

/**
 * The piece of `query` to search for and the test of its candidates: the longest piece whose
 * letters fold in bit 0x20 (one pass), unless a piece with few case forms has more bytes (each
 * form costs one pass of the byte kernel).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseVariantPlan } from "./case_variants.ts";
 * const plan = caseVariantPlan("über");
 * assert.deepEqual(plan.needles.map((n) => new TextDecoder().decode(n)), ["über"]);
 * assert.equal(plan.fold, "bit5");
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
  const re = new RegExp(escapeRegExp(query), "iu");
  const test = (line: string) => re.test(line);
  // The longest run of characters that fold in bit 0x20: one needle, one pass.
  let run = { bytes: 0, from: 0, to: 0 };
  for (let i = 0, start = 0, bytes = 0; i < chars.length; i++) {
    if (!foldsInBit5(chars[i]!)) {
      start = i + 1;
      bytes = 0;
      continue;
    }
    bytes += encoder.encode(chars[i]!).length;
    if (bytes > run.bytes) run = { bytes, from: start, to: i + 1 };
  }
  if (Math.min(run.bytes, 16) >= best.score) {
    return {
      needles: [encoder.encode(chars.slice(run.from, run.to).join(""))],
      fold: "bit5",
      test,
    };
  }
  let pieces = [""];
  for (const f of forms.slice(best.from, best.to)) {
    pieces = pieces.flatMap((p) => f.map((c) => p + c));
  }
  return { needles: pieces.map((p) => encoder.encode(p)), fold: true, test };
}
