/**
 * Reading JSON files with errors that name the file and the position.
 *
 * @module
 */
import { basename } from "node:path";
import { UnprocessableError } from "../error.ts";
import { JsonDepthError, parseJsonLimited } from "../json_limited.ts";
import { jsonErrorOffset } from "./json_locate.ts";

/** Line and column (1-based) of a character offset in a text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * A parse failure as one sentence that never quotes the file: V8's messages can carry a piece
 * of the text (`Unexpected token 'x', "secret..." is not valid JSON`), which a message shown in
 * a web page or a log must not repeat.
 */
function reasonOf(err: unknown): string {
  if (err instanceof JsonDepthError) return err.message.replace(/^Cannot read JSON/, "JSON is");
  const message = err instanceof Error ? err.message : "";
  if (/^Unexpected end of JSON input/.test(message)) return "the text ends too early";
  if (/^Unexpected token/.test(message)) return "unexpected character";
  if (/^Unexpected non-whitespace character after JSON/.test(message)) {
    return "unexpected text after the end of the JSON value";
  }
  const known =
    /^(Expected [^"]*?|Bad control character in string literal|Bad escaped character|Unterminated string)(?= in JSON| at position|$|\s*\()/
      .exec(message);
  return known ? known[1]!.trim() : "not valid JSON";
}

/**
 * Parses JSON text (nested at most 64 levels, see `lib/json_limited.ts`); on failure throws an
 * `AppError` (status 422) whose message names `what` (a description such as `the user
 * configuration (defaults.json)`, never a full path) with the line and column of the problem,
 * and never quotes the text.
 */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return parseJsonLimited(text);
  } catch (err) {
    if (!(err instanceof SyntaxError) && !(err instanceof JsonDepthError)) throw err;
    const offset = err instanceof JsonDepthError ? -1 : jsonErrorOffset(text);
    const where = lineColumnAt(text, offset < 0 ? 0 : offset);
    const at = offset < 0 ? "" : ` at line ${where.line}, column ${where.column}`;
    throw new UnprocessableError(`Cannot parse ${what}${at}: ${reasonOf(err)}`, {
      code: "invalid_json",
      cause: err,
    });
  }
}

/**
 * Reads and parses a JSON file; returns `undefined` when the file does not exist. Errors name
 * `what` (default: the file's base name), never the full path or the content.
 */
export async function readJsonFile(path: string, what?: string): Promise<unknown> {
  const label = what ?? `'${basename(path)}'`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    const reason =
      err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable
        ? "permission denied"
        : err instanceof Deno.errors.IsADirectory
        ? "it is a folder"
        : err instanceof TypeError
        ? "it is not UTF-8 text"
        : "it cannot be read";
    throw new UnprocessableError(`Cannot read ${label}: ${reason}`, {
      code: "unreadable",
      cause: err,
    });
  }
  return parseJsonText(text, label);
}
