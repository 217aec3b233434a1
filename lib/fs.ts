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
