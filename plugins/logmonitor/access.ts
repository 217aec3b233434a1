/**
 * Which log files a request may read: every `.log` file of the folder for STATUS, except the
 * host's ADMIN-only logs (`errors.log`, the stacks of unexpected errors), which only ADMIN lists,
 * downloads, searches or tails. A file counts as ADMIN-only by its name and by the name of the
 * real file it leads to, so a link inside the folder does not open it either.
 *
 * @module
 */
import { basename } from "node:path";
import type { Context } from "hono";
import { ForbiddenError } from "../../lib/error.ts";
import { ADMIN_ONLY_LOGS, hasPermission, type Permission } from "../../lib/host/mod.ts";

/** A file by its name and, once resolved, its real path. */
export interface NamedLog {
  name: string;
  path?: string;
}

/**
 * Whether only ADMIN may read the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isAdminOnlyLog } from "./access.ts";
 * assert.equal(isAdminOnlyLog({ name: "errors.log" }), true);
 * assert.equal(isAdminOnlyLog({ name: "x.log", path: "/logs/errors.log" }), true);
 * assert.equal(isAdminOnlyLog({ name: "host.log", path: "/logs/host.log" }), false);
 * ```
 */
export function isAdminOnlyLog(file: NamedLog): boolean {
  return ADMIN_ONLY_LOGS.includes(file.name) ||
    (file.path !== undefined && ADMIN_ONLY_LOGS.includes(basename(file.path)));
}

/** The permissions of a request's principal (none when it has no principal). */
export function permissionsOf(c: Context): readonly Permission[] {
  return c.get("principal")?.permissions ?? [];
}

/** Whether these permissions may read the file. */
export function mayReadLog(permissions: readonly Permission[], file: NamedLog): boolean {
  return !isAdminOnlyLog(file) || hasPermission(permissions, "ADMIN");
}

/**
 * Throws 403 unless these permissions may read the file.
 *
 * @throws {ForbiddenError} `Permission ADMIN required to read <name>`
 */
export function assertMayReadLog(permissions: readonly Permission[], file: NamedLog): void {
  if (!mayReadLog(permissions, file)) {
    throw new ForbiddenError(`Permission ADMIN required to read ${file.name}`, {
      code: "admin_only_log",
    });
  }
}

/** The files of a listing these permissions may read. */
export function readableLogs<T extends NamedLog>(
  permissions: readonly Permission[],
  files: readonly T[],
): T[] {
  return files.filter((f) => mayReadLog(permissions, f));
}
