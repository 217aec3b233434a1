/**
 * Per-channel configuration: mode, label, remembered manual state, rule matrix, temperature rule
 * and failsafe. The schemas of a (partial) channel entry are shared by the settings schema and by
 * the `set_*` commands; every invalid value is a 400 whose message names the field.
 *
 * @module
 */
import * as v from "valibot";
import { UsageError } from "../../lib/error.ts";
import { boolean, choice, number, object, parseSetting, text } from "../../lib/schema/mod.ts";
import { PLUGIN_ID } from "./id.ts";
import { type ChannelKind, defaultLabel } from "./layout.ts";

/** Printer states of the rule matrix. */
export const RULE_STATES = ["idle", "prepare", "printing", "paused", "error"] as const;
/** A printer state of the rule matrix. */
export type RuleState = typeof RULE_STATES[number];
/** What a rule asks for. */
export type RuleAction = "on" | "off" | "ignore";
/** The rule matrix: printer state → action. */
export type Rules = Record<RuleState, RuleAction>;
/** Channel modes. */
export type ChannelMode = "auto" | "manual";
/** What happens to a channel when the host shuts down while connected. */
export type Failsafe = "off" | "on" | "hold";
/** Temperature sensors a rule can watch. */
export type TempSensor = "bed" | "tool" | "chamber";

/** The temperature rule of a channel (the hysteresis is the global `temp_hysteresis`). */
export interface TempRule {
  enabled: boolean;
  sensor: TempSensor;
  /** °C. */
  threshold: number;
  /** What the channel does while the reading is above the threshold. */
  above: "on" | "off";
}

/** The stored configuration of one channel. */
export interface ChannelConfig {
  kind: ChannelKind;
  id: number;
  label: string;
  mode: ChannelMode;
  /** Remembered state, enforced in manual mode. */
  manual_on: boolean;
  rules: Rules;
  temp_rule: TempRule;
  failsafe: Failsafe;
}

/** Longest label, in characters. */
export const MAX_LABEL_LENGTH = 64;

/** The safe default of a channel: auto, all rules off, no temperature rule, failsafe off. */
export function defaultChannelConfig(kind: ChannelKind, id: number): ChannelConfig {
  return {
    kind,
    id,
    label: defaultLabel(kind, id),
    mode: "auto",
    manual_on: false,
    rules: { idle: "off", prepare: "off", printing: "off", paused: "off", error: "off" },
    temp_rule: { enabled: false, sensor: "bed", threshold: 40, above: "on" },
    failsafe: "off",
  };
}

/** A number, or a string of one (`"35.5"`: forms send text), checked by `field`. */
export function numeric<T extends v.GenericSchema<unknown, number>>(field: T) {
  return v.pipe(
    v.unknown(),
    v.transform((x) => typeof x === "string" && x.trim() !== "" ? Number(x) : x),
    field,
  );
}

/** A label: stripped and cut to {@linkcode MAX_LABEL_LENGTH} characters. */
const LABEL = v.pipe(
  text(),
  v.transform((s) => Array.from(s.trim()).slice(0, MAX_LABEL_LENGTH).join("").trim()),
);
const MODE = choice(["auto", "manual"]);
const FAILSAFE = choice(["off", "on", "hold"]);
const ACTION = choice(["on", "off", "ignore"]);

/** A partial rule matrix (printer state → on/off/ignore). */
export const RULES_PATCH = object({
  idle: v.optional(ACTION),
  prepare: v.optional(ACTION),
  printing: v.optional(ACTION),
  paused: v.optional(ACTION),
  error: v.optional(ACTION),
}, "an object of printer state to on/off/ignore");

/** A partial temperature rule. */
export const TEMP_RULE_PATCH = object({
  enabled: v.optional(boolean()),
  sensor: v.optional(choice(["bed", "tool", "chamber"])),
  threshold: v.optional(numeric(number())),
  above: v.optional(choice(["on", "off"])),
}, "an object");

/** A stored channel entry: its channel (`kind`, `id`) and any of its fields. */
export const CHANNEL_PATCH = object({
  kind: v.optional(v.unknown()),
  id: v.optional(v.unknown()),
  label: v.optional(LABEL),
  mode: v.optional(MODE),
  manual_on: v.optional(boolean()),
  rules: v.optional(RULES_PATCH),
  temp_rule: v.optional(TEMP_RULE_PATCH),
  failsafe: v.optional(FAILSAFE),
}, "an object");

/** A checked channel entry. */
export type ChannelPatch = v.InferOutput<typeof CHANNEL_PATCH>;

/** `base` with the fields of a checked `patch` (rules and temperature rule merge field by field). */
export function applyChannelPatch(base: ChannelConfig, patch: ChannelPatch): ChannelConfig {
  const defined = <T extends object>(o: T): Partial<T> =>
    Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as Partial<T>;
  return {
    ...base,
    ...(patch.label === undefined ? {} : { label: patch.label }),
    ...(patch.mode === undefined ? {} : { mode: patch.mode }),
    ...(patch.manual_on === undefined ? {} : { manual_on: patch.manual_on }),
    ...(patch.failsafe === undefined ? {} : { failsafe: patch.failsafe }),
    rules: { ...base.rules, ...defined(patch.rules ?? {}) },
    temp_rule: { ...base.temp_rule, ...defined(patch.temp_rule ?? {}) },
  };
}

/** Parses one field of a command with its schema; a refusal names `field`. */
function parseField<S>(schema: v.GenericSchema<unknown, S>, value: unknown, field: string): S {
  return parseSetting(schema, value, { owner: PLUGIN_ID, at: field });
}

/** Strips a label and cuts it to {@linkcode MAX_LABEL_LENGTH} characters. */
export function cleanLabel(value: unknown, field = "label"): string {
  return parseField(LABEL, value, field);
}

/** Parses a channel mode. */
export function parseMode(value: unknown, field = "mode"): ChannelMode {
  if (v.is(MODE, value)) return value;
  throw new UsageError(
    `Unknown mode '${String(value)}' in '${field}': expected 'auto' or 'manual'`,
    { code: "unknown_mode" },
  );
}

/** Parses a failsafe value. */
export function parseFailsafe(value: unknown, field = "failsafe"): Failsafe {
  return parseField(FAILSAFE, value, field);
}

/**
 * Parses a (partial) rule matrix and merges it into `base`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultChannelConfig, parseRules } from "./channel_config.ts";
 * const rules = parseRules({ printing: "on" }, defaultChannelConfig("usb", 1).rules);
 * assert.equal(rules.printing, "on");
 * assert.throws(() => parseRules({ idle: "x" }, rules), /Setting 'rules.idle' must be one of/);
 * ```
 */
export function parseRules(value: unknown, base: Rules, field = "rules"): Rules {
  return applyChannelPatch(
    { ...defaultChannelConfig("usb", 1), rules: base },
    { rules: parseField(RULES_PATCH, value, field) },
  ).rules;
}

/** Parses a (partial) temperature rule and merges it into `base`. */
export function parseTempRule(value: unknown, base: TempRule, field = "temp_rule"): TempRule {
  return applyChannelPatch(
    { ...defaultChannelConfig("usb", 1), temp_rule: base },
    { temp_rule: parseField(TEMP_RULE_PATCH, value, field) },
  ).temp_rule;
}

/** A 400 naming an invalid field of a command. */
export function invalid(field: string, problem: string): UsageError {
  return new UsageError(`Invalid setting '${field}': ${problem}`, { code: "invalid_setting" });
}
