/**
 * Reads the kernel's files (`/proc`, `/sys`) under the permissions the programs run with.
 *
 * Deno 2 refuses every read below `/proc`, `/sys` and `/dev` unless the program runs with
 * `--allow-all` (`NotCapable`, even with `--allow-read=/proc`), and localbench's tasks do not ask
 * for it. They do grant `--allow-run`, which already lets a program read anything through a child
 * process, so a refused read is made by `cat` (a list by `ls`) instead: the same bytes, no wider
 * permission. A read that neither way can make throws a `SetupError` (code `kernel_file_refused`)
 * naming the missing permission, so a caller can say so instead of reporting "no value".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readKernelText } from "./kernel_files.ts";
 * assert.match((await readKernelText("/proc/self/stat")) ?? "", /^\d+ \(/);
 * assert.equal(await readKernelText("/proc/no-such-file"), null);
 * ```
 *
 * @module
 */
import { SetupError } from "./error.ts";

const decoder = new TextDecoder();

function refused(path: string, why: string): SetupError {
  return new SetupError(
    `Cannot read ${path}: Deno reads /proc and /sys only with --allow-all, and ${why}`,
    { code: "kernel_file_refused" },
  );
}

/** `cat`/`ls` output, null when the file is missing; throws when the child cannot run. */
function viaChild(cmd: string, path: string, out: Deno.CommandOutput | Error): string | null {
  if (out instanceof Error) {
    const why = out instanceof Deno.errors.NotCapable
      ? `running ${cmd} needs --allow-run`
      : `${cmd} could not run (${out.message})`;
    throw refused(path, why);
  }
  if (out.code !== 0) return null; // missing (or unreadable for the user too): no value
  return decoder.decode(out.stdout);
}

function command(cmd: string, args: string[]): Deno.Command {
  return new Deno.Command(cmd, { args, stdin: "null", stdout: "piped", stderr: "piped" });
}

const isRefusal = (err: unknown) => err instanceof Deno.errors.NotCapable;
const isMissing = (err: unknown) =>
  err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied ||
  err instanceof Deno.errors.NotADirectory;

/** A kernel file's text; null when it does not exist. */
export async function readKernelText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (isMissing(err)) return null;
    if (!isRefusal(err)) throw err;
  }
  const out = await command("cat", ["--", path]).output().catch((e: Error) => e);
  return viaChild("cat", path, out);
}

/**
 * {@linkcode readKernelText}, synchronously (for checks made once, at a store's opening), and
 * stricter: null only for a file that does not exist; a file this user may not read (a `/proc`
 * mounted `hidepid=1`) throws, as it says nothing of whether the process is there.
 */
export function readKernelTextSync(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return null;
    }
    if (!isRefusal(err)) throw err;
  }
  let out: Deno.CommandOutput | Error;
  try {
    out = command("cat", ["--", path]).outputSync();
  } catch (err) {
    out = err as Error;
  }
  if (!(out instanceof Error) && !out.success) {
    const why = decoder.decode(out.stderr);
    if (!/No such file/i.test(why)) throw refused(path, `cat says: ${why.trim()}`);
  }
  return viaChild("cat", path, out);
}

/** The names in a kernel folder (unsorted); an empty list when it does not exist. */
export async function listKernelDir(path: string): Promise<string[]> {
  try {
    const names: string[] = [];
    for await (const e of Deno.readDir(path)) names.push(e.name);
    return names;
  } catch (err) {
    if (isMissing(err)) return [];
    if (!isRefusal(err)) throw err;
  }
  const out = await command("ls", ["-1A", "--", path]).output().catch((e: Error) => e);
  const text = viaChild("ls", path, out);
  return text === null ? [] : text.split("\n").filter((n) => n !== "");
}
