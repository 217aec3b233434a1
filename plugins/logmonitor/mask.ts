/**
 * Masking of secrets in streamed lines (`mask_log_content`): key/value secrets, passwords,
 * e-mail addresses and Bearer/Basic credentials.
 *
 * @module
 */
import type { ParsedLine } from "./parse.ts";

const RULES: [RegExp, string][] = [
  [
    /\b(api[_ -]?key|apikey|access[_ -]?token|auth[_ -]?token|secret[_ -]?key|client[_ -]?secret)(\s*[:=]\s*)("[^"]*"|'[^']*'|\S+)/gi,
    "$1: [REDACTED]",
  ],
  [/\b(password|passwd|pwd)(\s*[:=]\s*)("[^"]*"|'[^']*'|\S+)/gi, "$1: [REDACTED]"],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, "[EMAIL REDACTED]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+\/=-]{8,}/g, "$1 [REDACTED]"],
];

/**
 * Masks secrets in a text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maskText } from "./mask.ts";
 * assert.equal(maskText("api_key=abc123"), "api_key: [REDACTED]");
 * ```
 */
export function maskText(text: string): string {
  let out = text;
  for (const [re, replacement] of RULES) out = out.replace(re, replacement);
  return out;
}

/** Masks a parsed line's `message` and `raw`. */
export function maskLine(line: ParsedLine): ParsedLine {
  return { ...line, message: maskText(line.message), raw: maskText(line.raw) };
}
