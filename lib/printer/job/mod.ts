/**
 * Printing from the host: {@linkcode JobRunner} sends a G-code file through a printer's driver
 * (pause, resume, cancel, progress by bytes and lines, the job's scripts); {@linkcode SdCardJob}
 * follows a print from the printer's own SD card (`M27`).
 *
 * @module
 */
export { type GcodeLine, gcodeLines, type GcodeLinesOptions } from "./gcode_lines.ts";
export { JobProgress } from "./progress.ts";
export {
  ACTIVE_JOB_STATES,
  type JobEvent,
  type JobFile,
  JobRunner,
  type JobRunnerOptions,
  printsFile,
} from "./runner.ts";
export { DEFAULT_JOB_SCRIPTS, type JobScripts, scriptLines } from "./scripts.ts";
export { SdCardJob, type SdCardJobOptions } from "./sd_card.ts";
