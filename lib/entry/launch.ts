/**
 * What the packaged launcher (`launcher.ts`) does with its arguments (seed: "Entry script
 * rules", last paragraph): the tray alone for no arguments or only `--debug`/`-d`, else the
 * entry script with every argument.
 *
 * @module
 */
import { withoutLeadingDashDash } from "../args.ts";
import { DEFAULT_TRAY_URL } from "../tray/mod.ts";

/** What the launcher does with its arguments. */
export type LaunchPlan =
  | { kind: "tray"; args: string[] }
  | { kind: "entry"; args: string[] };

/**
 * Decides between the tray alone and the entry script.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planLaunch } from "./launch.ts";
 * assert.equal(planLaunch(["-d"]).kind, "tray");
 * assert.equal(planLaunch(["--runs", "1"]).kind, "entry");
 * ```
 */
export function planLaunch(given: string[]): LaunchPlan {
  const argv = withoutLeadingDashDash(given);
  if (argv.every((a) => a === "--debug" || a === "-d")) {
    const debug = argv.length > 0 ? ["--debug"] : [];
    return { kind: "tray", args: ["--url", DEFAULT_TRAY_URL, ...debug] };
  }
  return { kind: "entry", args: argv };
}
