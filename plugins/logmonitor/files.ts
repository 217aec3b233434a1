/**
 * Log files: the filename rules (plain `.log` names, no path parts, no hidden files, no NUL),
 * resolution inside the log folder with symlink escapes refused, and the file list.
 *
 * @module
 */
import { join, sep } from "node:path";
import { AppError } from "../../lib/error.ts";
import type { Logger } from "../../lib/log.ts";

/** Largest file searched or streamed: 1 GiB (equal is allowed). */
export const MAX_FILE_BYTES = 1024 ** 3;

/** A log file entry of `GET /files`. */
export interface LogFileEntry {
  name: string;
  size: number;
  /** Modification time, epoch seconds. */
  modified: number;
}

/** A resolved file. */
export interface ResolvedFile {
  name: string;
  /** The real path (symlinks resolved). */
  path: string;
  size: number;
  modified: number;
}

/**
 * Whether `name` is a plain `.log` filename: not empty, at most 255 characters, no `/` or `\`,
 * no control characters (NUL included), not hidden, not `.` or `..`.
 *
 * @example
 * ```ts
 * import { isValidLogName } from "./files.ts";
 * console.assert(isValidLogName("host.log"));
 * console.assert(!isValidLogName("../host.log") && !isValidLogName(".hidden.log"));
 * ```
 */
export function isValidLogName(name: unknown): name is string {
  return typeof name === "string" && name.length > 4 && name.length <= 255 &&
    !hasPathOrControlChar(name) && !name.startsWith(".") && name.endsWith(".log");
}

function hasPathOrControlChar(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || name[i] === "/" || name[i] === "\\") return true;
  }
  return false;
}

function isInside(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** Options of {@linkcode resolveLogFile}. */
export interface ResolveOptions {
  /** Where `[SECURITY]` warnings go. */
  logger?: Logger;
  /** Message of the 404. @default "Log file not found" */
  notFound?: string;
}

/**
 * Resolves a filename inside the log folder.
 *
 * @throws {AppError} 400 `Invalid filename`, 403 `Access denied` (outside the folder, symlink
 * escape, or no permission), 404 when missing or not a regular file.
 */
export async function resolveLogFile(
  logDir: string,
  name: unknown,
  options: ResolveOptions = {},
): Promise<ResolvedFile> {
  const notFound = options.notFound ?? "Log file not found";
  if (!isValidLogName(name)) throw new AppError(400, "Invalid filename");
  let realDir: string;
  let real: string;
  try {
    realDir = await Deno.realPath(logDir);
    real = await Deno.realPath(join(logDir, name));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) throw new AppError(404, notFound);
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      options.logger?.warn(`[SECURITY] access_denied: ${JSON.stringify(name)}`);
      throw new AppError(403, "Access denied");
    }
    throw err;
  }
  if (!isInside(real, realDir)) {
    options.logger?.warn(`[SECURITY] path_traversal: ${JSON.stringify(name)}`);
    throw new AppError(403, "Access denied");
  }
  const st = await Deno.stat(real);
  if (!st.isFile) throw new AppError(404, notFound);
  return { name, path: real, size: st.size, modified: (st.mtime?.getTime() ?? 0) / 1000 };
}

/** Lists the `.log` files of the folder (sorted by name); null when the folder is missing. */
export async function listLogFiles(logDir: string): Promise<LogFileEntry[] | null> {
  const out: LogFileEntry[] = [];
  try {
    for await (const entry of Deno.readDir(logDir)) {
      if (!isValidLogName(entry.name) || entry.isDirectory) continue;
      try {
        const f = await resolveLogFile(logDir, entry.name);
        out.push({ name: f.name, size: f.size, modified: f.modified });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  return out.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** Throws 413 with `message` when the file is larger than 1 GiB. */
export function assertSearchable(file: ResolvedFile, message: string): void {
  if (file.size > MAX_FILE_BYTES) throw new AppError(413, message);
}
