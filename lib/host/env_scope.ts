/**
 * Environment scoping for the permission-scoped host. Under `--allow-env=NAME,...` some Node-style
 * libraries crash when they enumerate `process.env` (the `debug` package behind `mqtt` does, at
 * import time). When full environment access is not granted, `process.env` is replaced by a
 * snapshot of the variables the launcher allowed (their names are in `LOCALBENCH_SCOPED_ENV`).
 * Import this module before any npm package.
 *
 * @module
 */
import process from "node:process";

/** The variable holding the comma-separated names the scoped host may read. */
export const SCOPED_ENV_VAR = "LOCALBENCH_SCOPED_ENV";

function readAllowed(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch (err) {
    if (err instanceof Deno.errors.NotCapable) return undefined;
    throw err;
  }
}

/**
 * Replaces `process.env` with a snapshot of the allowed variables when environment access is
 * scoped; returns whether it did.
 */
export function scopeProcessEnv(): boolean {
  if (Deno.permissions.querySync({ name: "env" }).state === "granted") return false;
  const names = (readAllowed(SCOPED_ENV_VAR) ?? "").split(",").filter(Boolean);
  const snapshot: Record<string, string> = {};
  for (const name of names) {
    const value = readAllowed(name);
    if (value !== undefined) snapshot[name] = value;
  }
  Object.defineProperty(process, "env", { value: snapshot, configurable: true, writable: true });
  return true;
}

scopeProcessEnv();
