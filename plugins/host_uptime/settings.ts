/**
 * Settings of the uptime plugin: one schema with every key's type, default and range.
 *
 * @module
 */
import * as v from "valibot";
import { boolean, choice, integer, object } from "../../lib/schema/mod.ts";
import { DISPLAY_FORMATS } from "./format.ts";

/** Every setting of the uptime plugin (version 1). */
export const UPTIME_SCHEMA = object({
  show_system_uptime: v.optional(boolean(), true),
  show_host_uptime: v.optional(boolean(), true),
  compact_display: v.optional(boolean(), false),
  compact_toggle_interval_seconds: v.optional(integer({ min: 5, max: 60 }), 5),
  display_format: v.optional(choice(DISPLAY_FORMATS), "full"),
  poll_interval_seconds: v.optional(integer({ min: 1, max: 120 }), 5),
  debug: v.optional(boolean(), false),
  debug_throttle_seconds: v.optional(integer({ min: 1, max: 120 }), 60),
}, "an object");

/** The typed settings. */
export type UptimeSettings = v.InferOutput<typeof UPTIME_SCHEMA>;

/**
 * The defaults.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UPTIME_DEFAULTS } from "./settings.ts";
 * assert.equal(UPTIME_DEFAULTS.display_format, "full");
 * assert.equal(UPTIME_DEFAULTS.poll_interval_seconds, 5);
 * ```
 */
export const UPTIME_DEFAULTS: Readonly<UptimeSettings> = Object.freeze(v.parse(UPTIME_SCHEMA, {}));
