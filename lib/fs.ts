/**
 * Small file-system questions asked in many places.
 *
 * @module
 */

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
