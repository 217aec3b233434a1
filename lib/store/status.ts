/**
 * Result statuses in SQL.
 *
 * @module
 */

/**
 * The statuses of a finished result with figures: `ok`, and `partial` (some of its runs failed:
 * shown and reported as such, never a cache hit). `failed`, `stopped` and `running` have none.
 */
export const FINISHED = "('ok', 'partial')";
