/**
 * Log files: the filename rules (plain `.log` names, no path parts, no hidden files, no NUL),
 * resolution and opening inside the log folder through `lib/named_file.ts` (symlink escapes and
 * swaps refused), and the file list.
 *
 * @module
 */
import { join } from "node:path";
import { AppError, TooLargeError } from "../../lib/error.ts";
import type { Logger } from "../../lib/log.ts";
import {
  isPlainName,
  type NamedFileOptions,
  openNamedFile,
  type ResolvedNamedFile,
  resolveNamedFile,
} from "../../lib/named_file.ts";

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

/** The pattern of a log file name (on top of the plain-name rules of `lib/named_file.ts`). */
export const LOG_NAME = /^.+\.log$/s;

/**
 * Whether `name` is a plain `.log` filename: not empty, at most 255 characters, no `/` or `\`,
 * no control characters (NUL included), not hidden, not `.` or `..`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isValidLogName } from "./files.ts";
 * assert.ok(isValidLogName("host.log"));
 * assert.ok(!isValidLogName("../host.log") && !isValidLogName(".hidden.log"));
 * ```
 */
export function isValidLogName(name: unknown): name is string {
  return isPlainName(name) && LOG_NAME.test(name);
}

/** Options of {@linkcode resolveLogFile}. */
export interface ResolveOptions {
  /** Where `[SECURITY]` warnings go. */
  logger?: Logger;
  /** Message of the 404. @default "Log file not found" */
  notFound?: string;
}

function namedOptions(options: ResolveOptions): NamedFileOptions {
  return {
    pattern: LOG_NAME,
    notFound: options.notFound ?? "Log file not found",
    ...(options.logger ? { logger: options.logger } : {}),
  };
}

function resolvedOf(f: ResolvedNamedFile): ResolvedFile {
  return {
    name: f.name,
    path: f.path,
    size: f.info.size,
    modified: modifiedOf(f.info),
  };
}

function modifiedOf(info: Deno.FileInfo): number {
  return (info.mtime?.getTime() ?? 0) / 1000;
}

/**
 * Resolves a filename inside the log folder (through `lib/named_file.ts`).
 *
 * @throws {UsageError} `Invalid filename`, {ForbiddenError} `Access denied` (outside the folder, symlink
 * escape, or no permission), {NotFoundError} when missing or not a regular file.
 */
export async function resolveLogFile(
  logDir: string,
  name: unknown,
  options: ResolveOptions = {},
): Promise<ResolvedFile> {
  return resolvedOf(await resolveNamedFile(logDir, name, namedOptions(options)));
}

/** An opened log file: read from `file`, never by name again. */
export interface OpenedLogFile extends ResolvedFile {
  file: Deno.FsFile;
}

/**
 * Opens a filename inside the log folder and verifies that the handle is the checked file (a
 * file swapped for a link between the check and the open is refused with 403).
 *
 * @throws as {@linkcode resolveLogFile}.
 */
export async function openLogFile(
  logDir: string,
  name: unknown,
  options: ResolveOptions = {},
): Promise<OpenedLogFile> {
  const opened = await openNamedFile(logDir, name, namedOptions(options));
  return { ...resolvedOf(opened), file: opened.file };
}

/** Most file lookups of one listing in flight at once. */
export const LOOKUPS_AT_ONCE = 32;

/**
 * Lists the `.log` files of the folder (sorted by name); null when the folder is missing. A
 * regular file costs one `lstat` after the folder's listing (a plain name in the folder cannot
 * lead elsewhere, and `lstat` follows no link: fewer trips to the file system's threads, which
 * wait for a CPU each on a busy machine); a link
 * goes through {@linkcode resolveLogFile} and is listed only when it stays inside the folder. Up
 * to {@linkcode LOOKUPS_AT_ONCE} entries are looked up concurrently.
 */
export async function listLogFiles(logDir: string): Promise<LogFileEntry[] | null> {
  const names: { name: string; plain: boolean }[] = [];
  try {
    for await (const entry of Deno.readDir(logDir)) {
      if (!isValidLogName(entry.name) || entry.isDirectory) continue;
      names.push({ name: entry.name, plain: entry.isFile });
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  const out: LogFileEntry[] = [];
  for (let i = 0; i < names.length; i += LOOKUPS_AT_ONCE) {
    const batch = names.slice(i, i + LOOKUPS_AT_ONCE);
    for (const f of await Promise.all(batch.map((n) => listed(logDir, n.name, n.plain)))) {
      if (f !== null) out.push(f);
    }
  }
  return out.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** One entry of the listing, or null when it is not (or no longer) a readable file inside. */
async function listed(logDir: string, name: string, plain: boolean): Promise<LogFileEntry | null> {
  if (plain) {
    try {
      const info = await Deno.lstat(join(logDir, name));
      if (info.isFile) return { name, size: info.size, modified: modifiedOf(info) };
      if (!info.isSymlink) return null;
    } catch (err) {
      if (isGone(err)) return null;
      throw err;
    }
  }
  try {
    const f = await resolveLogFile(logDir, name);
    return { name: f.name, size: f.size, modified: f.modified };
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/** A lookup failure that leaves an entry out of the listing (as {@linkcode resolveLogFile} does). */
function isGone(err: unknown): boolean {
  return err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied ||
    err instanceof Deno.errors.NotCapable;
}

/** Throws 413 with `message` when the file is larger than 1 GiB. */
export function assertSearchable(file: ResolvedFile, message: string): void {
  if (file.size > MAX_FILE_BYTES) throw new TooLargeError(message);
}
