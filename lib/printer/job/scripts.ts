/**
 * The G-code a job sends of its own: when it pauses (park the head, for example), resumes,
 * is cancelled (heaters, fan and motors off) and finishes. Settings, with these defaults.
 *
 * @module
 */

/** The scripts of a job, each a list of G-code lines (`;` comments and blank lines skipped). */
export interface JobScripts {
  /** Sent once the line in flight is acknowledged, before the job is PAUSED. */
  pause: string[];
  /** Sent before the job prints on after a pause. */
  resume: string[];
  /** Sent once the line in flight is acknowledged, when the job is cancelled. */
  cancel: string[];
  /** Sent after the file's last line (FINISHING). */
  finish: string[];
}

/**
 * The defaults: cancelling turns the heaters (`M104 S0`, `M140 S0`), the part fan (`M107`) and
 * the motors (`M84`) off; the other scripts are empty.
 */
export const DEFAULT_JOB_SCRIPTS: Readonly<JobScripts> = Object.freeze({
  pause: [],
  resume: [],
  cancel: ["M104 S0", "M140 S0", "M107", "M84"],
  finish: [],
});

/**
 * The lines of a script written as text (one command a line, as a settings field holds it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scriptLines } from "./scripts.ts";
 * assert.deepEqual(scriptLines("G91\n\nG1 Z10 ; lift\r\n; park\nG90"), ["G91", "G1 Z10", "G90"]);
 * ```
 */
export function scriptLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.replace(/;.*$/, "").trim()).filter(Boolean);
}
