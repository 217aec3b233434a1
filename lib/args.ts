/**
 * `deno task X -- opts` hands the program a literal `--` as its first argument (Deno passes it
 * through). Every program of this project drops it, so the README's form (`deno task bench --
 * --runs 1`) and the bare form (`deno task bench --runs 1`) mean the same.
 *
 * @module
 */

/**
 * The arguments without a leading `--` (a `--` further on keeps its usual meaning).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutLeadingDashDash } from "./args.ts";
 * assert.equal(withoutLeadingDashDash(["--", "--help"]).join(), "--help");
 * ```
 */
export function withoutLeadingDashDash(argv: readonly string[]): string[] {
  return argv[0] === "--" ? argv.slice(1) : [...argv];
}
