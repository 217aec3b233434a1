/**
 * The choices of the Temperature ETA settings (browser-safe data: the schema and the settings
 * screen both read them).
 *
 * @module
 */

/** Heating / cooling algorithms. */
export const ALGORITHMS = ["linear", "exponential"] as const;

/** ETA display formats. */
export const TIME_FORMATS = ["auto", "seconds", "minutes", "hours", "hms"] as const;
