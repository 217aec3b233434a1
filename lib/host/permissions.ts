/**
 * Permission checks: ADMIN implies every other permission.
 *
 * @module
 */
import { UsageError } from "../error.ts";
import type { Permission } from "./plugin.ts";

/** Every permission, weakest first. */
export const PERMISSIONS: readonly Permission[] = [
  "STATUS",
  "CONTROL",
  "CONNECTION",
  "SETTINGS",
  "ADMIN",
];

/**
 * Whether `granted` includes `needed` (ADMIN grants everything).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hasPermission } from "./permissions.ts";
 * assert.ok(hasPermission(["ADMIN"], "SETTINGS"));
 * assert.ok(!hasPermission(["STATUS"], "CONTROL"));
 * ```
 */
export function hasPermission(granted: readonly Permission[], needed: Permission): boolean {
  return granted.includes("ADMIN") || granted.includes(needed);
}

/**
 * Parses a comma-separated permission list (case-insensitive).
 *
 * @throws {UsageError} naming an unknown permission.
 */
export function parsePermissions(list: string): Permission[] {
  const out: Permission[] = [];
  for (const part of list.split(",")) {
    const name = part.trim().toUpperCase();
    if (name === "") continue;
    if (!(PERMISSIONS as readonly string[]).includes(name)) {
      throw new UsageError(
        `Unknown permission '${part.trim()}': expected ${PERMISSIONS.join(", ")}`,
      );
    }
    if (!out.includes(name as Permission)) out.push(name as Permission);
  }
  if (out.length === 0) throw new UsageError("Cannot use an empty permission list");
  return out;
}

/** The permission a method needs by default: GET/HEAD/OPTIONS → STATUS, others → CONTROL. */
export function defaultPermissionFor(method: string): Permission {
  return ["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase()) ? "STATUS" : "CONTROL";
}
