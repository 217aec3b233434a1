/**
 * How a result's machine is named where none was recorded (results stored before machines were,
 * or imported from another tool's output). Shared by the store, the reports and the browser.
 *
 * @module
 */

/** The name of an unknown machine. */
export const UNKNOWN_MACHINE = "unknown machine";

/**
 * The key that stands for an unknown machine where a machine is chosen: the Results page's
 * filter and the Comparison URL's `machine` (`?machine=unknown`).
 */
export const UNKNOWN_MACHINE_KEY = "unknown";
