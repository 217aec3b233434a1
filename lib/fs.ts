/**
 * Small file-system questions asked in many places.
 *
 * @module
 */
import { dirname } from "node:path";
import { StorageError } from "./error.ts";

/** Whether something exists at `path` (a missing path is false; other errors are thrown). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

/**
 * Whether `path` is a regular file (following links). Missing paths and paths the process may
 * not read are false.
 */
export function isFileSync(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotCapable) return false;
    if (err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw err;
  }
}

/**
 * Why a file could not be written, in a few words, for the errors the file system gives a user
 * (a folder of the path is a file, permission, a place Deno refuses, a read-only disk, a full
 * disk); null for any other error.
 */
export function writeFailureReason(err: unknown): string | null {
  if (err instanceof Deno.errors.NotCapable) return "this program may not write there";
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (err instanceof Deno.errors.NotADirectory || err instanceof Deno.errors.AlreadyExists) {
    return "a part of the path is a file, not a folder";
  }
  if (err instanceof Deno.errors.IsADirectory) return "it is a folder";
  if (err instanceof Deno.errors.NotFound) return "a folder of the path does not exist";
  const text = err instanceof Error ? err.message : "";
  if (/read-only file system/i.test(text)) return "the disk is read-only";
  if (/no space left/i.test(text)) return "the disk is full";
  return null;
}

/**
 * Writes a file a user named with a command-line option (`--export-cache`, `--save-requests`),
 * its folders made, atomically. A failure the user can fix is a `StorageError` (`write_failed`)
 * naming the file, the reason and the option.
 */
export async function writeNamedOutput(
  path: string,
  text: string,
  what: string,
  option: string,
): Promise<void> {
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, text);
  } catch (err) {
    const reason = writeFailureReason(err);
    if (reason === null) throw err;
    throw new StorageError(
      `Cannot write ${what} to ${path} (${reason}): give ${option} a file in a folder you can ` +
        "write, or a bare file name for the results folder",
      { code: "write_failed", cause: err },
    );
  }
}

/** The file operations of {@linkcode writeFileAtomic} (tests inject failures). */
export interface AtomicWriteFs {
  /** Writes `data` to a new file at `path` (with `mode` when given). */
  write(path: string, data: string | Uint8Array, mode?: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
}

/** The real file system. */
export const denoAtomicWriteFs: AtomicWriteFs = {
  write: (path, data, mode) =>
    typeof data === "string"
      ? Deno.writeTextFile(path, data, { mode })
      : Deno.writeFile(path, data, { mode }),
  rename: (from, to) => Deno.rename(from, to),
  remove: (path) => Deno.remove(path),
};

/** Options of {@linkcode writeFileAtomic}. */
export interface WriteFileAtomicOptions {
  /** Permissions of the new file (e.g. `0o600` for secrets). @default the process's umask */
  mode?: number;
  /** Create the folder first when it is missing. @default false */
  mkdir?: boolean;
  /** @default the real file system */
  fs?: AtomicWriteFs;
}

/**
 * Writes a file atomically: a temporary file in the same folder, then a rename, so a reader or
 * a crash never sees half a file. On failure the temporary file is removed and the error thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeFileAtomic } from "./fs.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a/b.json`, "{}", { mkdir: true, mode: 0o600 });
 * assert.equal(await Deno.readTextFile(`${dir}/a/b.json`), "{}");
 * assert.deepEqual([...Deno.readDirSync(`${dir}/a`)].map((e) => e.name), ["b.json"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const fs = options.fs ?? denoAtomicWriteFs;
  if (options.mkdir) await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await fs.write(tmp, data, options.mode);
    await fs.rename(tmp, path);
  } catch (err) {
    await fs.remove(tmp).catch(() => {});
    throw err;
  }
}
