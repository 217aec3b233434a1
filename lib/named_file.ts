/**
 * The one way to serve a file by name: every route that turns a client's name into a file
 * (static files, sounds, log downloads, tails) goes through here.
 *
 * 1. The name is decoded exactly once by Hono's routing (or {@linkcode decodeSegments} for
 *    a raw URL path) and never again: names are joined as paths, never parsed as URLs.
 * 2. It must be plain ({@linkcode isPlainName}: no `/`, `\`, control characters, no leading dot,
 *    well-formed Unicode, at most 255 UTF-16 units) and match the route's pattern.
 * 3. It is resolved (links followed) and must stay inside the folder's real path.
 * 4. It is opened, and the opened handle's identity (device and inode) is compared with the
 *    checked path after the open: a file swapped for a link between check and open is refused.
 * 5. The caller reads from that handle, never by name again.
 *
 * @module
 */
import { join, sep } from "node:path";
import { AppError, ForbiddenError, NotFoundError, UsageError } from "./error.ts";
import type { Logger } from "./log.ts";

/** Options of {@linkcode resolveNamedFile} and {@linkcode openNamedFile}. */
export interface NamedFileOptions {
  /** The route's pattern; the whole (decoded) name must match. @default any plain name */
  pattern?: RegExp;
  /** Accept `a/b/c`, each segment plain (static folders). @default false */
  subfolders?: boolean;
  /** Where refusals (escapes, swaps) are logged as `[SECURITY]` warnings. @default none */
  logger?: Logger;
  /** Message of the 400. @default "Invalid filename" */
  invalid?: string;
  /** Message of the 404. @default "File not found" */
  notFound?: string;
}

/** A checked file: its accepted name, real path and metadata. */
export interface ResolvedNamedFile {
  /** The name as accepted (decoded once, unchanged). */
  name: string;
  /** The real path (links resolved), inside the folder. */
  path: string;
  info: Deno.FileInfo;
}

/** An opened file: read from {@linkcode NamedFile.file}, never by name again. */
export interface NamedFile extends ResolvedNamedFile {
  /** The handle whose identity was verified; the caller closes it (or consumes `readable`). */
  file: Deno.FsFile;
}

const MAX_NAME = 255;

/**
 * Whether `name` is one plain file name: not empty, at most 255 UTF-16 units, no `/` or `\`,
 * no control characters (NUL included), not starting with a dot (hidden, `.` and `..`), and
 * well-formed Unicode (no lone surrogates).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPlainName } from "./named_file.ts";
 * assert.ok(isPlainName("host.log") && !isPlainName("../x") && !isPlainName(".env"));
 * ```
 */
export function isPlainName(name: unknown): name is string {
  if (typeof name !== "string" || name.length === 0 || name.length > MAX_NAME) return false;
  if (name.startsWith(".") || !name.isWellFormed()) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x2f || code === 0x5c) return false;
    if (code >= 0x80 && code <= 0x9f) return false;
  }
  return true;
}

/**
 * Splits a raw (still percent-encoded) URL path into segments and decodes each exactly once.
 * Returns null when a segment is malformed or decodes to something that is not a plain name
 * (an encoded `/` or `\`, a NUL, `..`, a hidden name).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeSegments } from "./named_file.ts";
 * assert.equal(decodeSegments("a/b%20c.css")?.join("|"), "a|b c.css");
 * assert.ok(decodeSegments("..%2Fetc") === null && decodeSegments("%252e%252e")?.[0] === "%2e%2e");
 * ```
 */
export function decodeSegments(raw: string): string[] | null {
  const out: string[] = [];
  for (const part of raw.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (!isPlainName(decoded)) return null;
    out.push(decoded);
  }
  return out;
}

function checkName(name: unknown, options: NamedFileOptions): string {
  const invalid = () =>
    new UsageError(options.invalid ?? "Invalid filename", { code: "invalid_name" });
  if (typeof name !== "string") throw invalid();
  const segments = options.subfolders ? name.split("/") : [name];
  if (!segments.every(isPlainName)) throw invalid();
  if (options.pattern && !options.pattern.test(name)) throw invalid();
  return name;
}

function isInside(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * Whether an error is a refusal of the named-file reader (an invalid name, a denied or missing
 * file), not a failure of the machine.
 */
export function isRefusal(err: unknown): boolean {
  return err instanceof UsageError || err instanceof ForbiddenError ||
    err instanceof NotFoundError;
}

function denied(options: NamedFileOptions, what: string, name: string): AppError {
  options.logger?.warn(`[SECURITY] ${what}: ${JSON.stringify(name).slice(0, 300)}`);
  return new ForbiddenError("Access denied", { code: "access_denied" });
}

function notFound(options: NamedFileOptions): AppError {
  return new NotFoundError(options.notFound ?? "File not found", { code: "not_found" });
}

/**
 * Checks a name and resolves it inside `dir` without opening it (listings, metadata).
 *
 * @throws {UsageError} `invalid_name` (not plain, or not the route's pattern), {ForbiddenError}
 * `access_denied` (resolves outside the folder, or not permitted), {NotFoundError} `not_found` (missing,
 * or not a regular file).
 */
export async function resolveNamedFile(
  dir: string,
  name: unknown,
  options: NamedFileOptions = {},
): Promise<ResolvedNamedFile> {
  const plain = checkName(name, options);
  let realDir: string;
  let real: string;
  try {
    realDir = await Deno.realPath(dir);
    real = await Deno.realPath(join(realDir, plain));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      throw notFound(options);
    }
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      throw denied(options, "access_denied", plain);
    }
    throw err;
  }
  if (!isInside(real, realDir)) throw denied(options, "path_traversal", plain);
  const info = await Deno.stat(real);
  if (!info.isFile) throw notFound(options);
  return { name: plain, path: real, info };
}

/**
 * Whether an open handle is still the file at `path`: same device and inode, and `path` itself
 * is not a link. Tails call it on every reopen; a missing path is false.
 */
export async function isSameFile(file: Deno.FsFile, path: string): Promise<boolean> {
  let handle: Deno.FileInfo;
  let named: Deno.FileInfo;
  try {
    handle = await file.stat();
    named = await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
  if (named.isSymlink || !handle.isFile) return false;
  if (handle.ino === null || named.ino === null) return handle.size === named.size;
  return handle.dev === named.dev && handle.ino === named.ino;
}

/**
 * Checks, resolves and opens a file by name, then verifies that the handle is the checked file
 * (see the module's steps). Read from the returned handle only.
 *
 * @throws as {@linkcode resolveNamedFile}; {ForbiddenError} `access_denied` when the file was
 * swapped between the check and the open.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openNamedFile } from "./named_file.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.txt`, "hi");
 * const f = await openNamedFile(dir, "a.txt", { pattern: /\.txt$/ });
 * assert.equal(new TextDecoder().decode(await new Response(f.file.readable).bytes()), "hi");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openNamedFile(
  dir: string,
  name: unknown,
  options: NamedFileOptions = {},
): Promise<NamedFile> {
  const checked = await resolveNamedFile(dir, name, options);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(checked.path, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) throw notFound(options);
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      throw denied(options, "access_denied", checked.name);
    }
    throw err;
  }
  try {
    const again = await resolveNamedFile(dir, checked.name, options);
    if (again.path !== checked.path || !(await isSameFile(file, checked.path))) {
      throw denied(options, "file_swapped", checked.name);
    }
    return { ...checked, info: await file.stat(), file };
  } catch (err) {
    file.close();
    throw err;
  }
}

/** Reads an opened file whole and closes it. */
export async function readNamedFile(file: NamedFile): Promise<Uint8Array<ArrayBuffer>> {
  return await new Response(file.file.readable).bytes();
}
