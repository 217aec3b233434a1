/**
 * The host's side of a Marlin line: a command cleaned of its comment and checked to be one
 * line, numbered and checksummed as `N<n> <command>*<checksum>`.
 *
 * @module
 */
import { badRequest } from "../../error.ts";

const encoder = new TextEncoder();

/**
 * The XOR of every byte of `text` (UTF-8), as Marlin checks it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checksum } from "./framing.ts";
 * assert.equal(checksum("N0 M110 N0"), 125);
 * ```
 */
export function checksum(text: string): number {
  let sum = 0;
  for (const byte of encoder.encode(text)) sum ^= byte;
  return sum;
}

/** A G-code line without its `;` comment and surrounding white space (`""` when nothing is left). */
export function stripComment(line: string): string {
  const at = line.indexOf(";");
  return (at === -1 ? line : line.slice(0, at)).trim();
}

/**
 * The command to send for `line`: its comment stripped. Throws a `UsageError` when nothing is
 * left, or when it holds a control character (a line break would smuggle in a second command)
 * or a `*` (it would end the checksummed part early).
 */
export function cleanCommand(line: string): string {
  const command = stripComment(line);
  if (command === "") throw badRequest("Cannot send an empty command");
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f*]/.test(command)) {
    throw badRequest(`Cannot send '${JSON.stringify(command)}': a command is one line without '*'`);
  }
  return command;
}

/**
 * The numbered, checksummed line for a clean command, without its line ending.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { frameLine } from "./framing.ts";
 * assert.equal(frameLine(0, "M110 N0"), "N0 M110 N0*125");
 * ```
 */
export function frameLine(lineNumber: number, command: string): string {
  const numbered = `N${lineNumber} ${command}`;
  return `${numbered}*${checksum(numbered)}`;
}
