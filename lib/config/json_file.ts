/**
 * Reading JSON files with errors that name the file and the position.
 *
 * @module
 */
import { AppError } from "../error.ts";
import { jsonErrorOffset } from "./json_locate.ts";

/** Line and column (1-based) of a character offset in a text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * Parses JSON text; on failure throws an `AppError` (status 422) whose message names `source`
 * and the line and column of the problem.
 */
export function parseJsonText(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    const offset = jsonErrorOffset(text);
    const where = lineColumnAt(text, offset < 0 ? 0 : offset);
    const at = ` at line ${where.line}, column ${where.column}`;
    const reason = detail.replace(/\s*\(line \d+ column \d+\)/, "").replace(
      / in JSON at position \d+/,
      "",
    );
    throw new AppError(422, `Cannot parse JSON file '${source}'${at}: ${reason}`, {
      code: "invalid_json",
      cause: err,
    });
  }
}

/** Reads and parses a JSON file; returns `undefined` when the file does not exist. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw new AppError(422, `Cannot read file '${path}': ${(err as Error).message}`, {
      cause: err,
    });
  }
  return parseJsonText(text, path);
}

/**
 * Writes a file atomically: a temporary file in the same folder, then a rename, so a reader or a
 * crash never sees half a file.
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(tmp, data);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}
