/**
 * Per-channel configuration: mode, label, remembered manual state, rule matrix, temperature rule
 * and failsafe. Pure parsers shared by the settings validation and the `set_*` commands; every
 * invalid value is an `AppError` 400 whose message names the field.
 *
 * @module
 */
import { AppError, UsageError } from "../../lib/error.ts";
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

/** Strips a label and cuts it to {@linkcode MAX_LABEL_LENGTH} characters. */
export function cleanLabel(value: unknown, field = "label"): string {
  if (typeof value !== "string") throw invalid(field, "must be a string");
  return Array.from(value.trim()).slice(0, MAX_LABEL_LENGTH).join("").trim();
}

/** Parses a channel mode. */
export function parseMode(value: unknown, field = "mode"): ChannelMode {
  if (value === "auto" || value === "manual") return value;
  throw new UsageError(
    `Unknown mode '${String(value)}' in '${field}': expected 'auto' or 'manual'`,
    { code: "unknown_mode" },
  );
}

/** Parses a failsafe value. */
export function parseFailsafe(value: unknown, field = "failsafe"): Failsafe {
  return oneOf(value, ["off", "on", "hold"] as const, field);
}

/** Parses a (partial) rule matrix and merges it into `base`. */
export function parseRules(value: unknown, base: Rules, field = "rules"): Rules {
  if (!isRecord(value)) throw invalid(field, "must be an object of printer state to on/off/ignore");
  const rules = { ...base };
  for (const [state, action] of Object.entries(value)) {
    if (!(RULE_STATES as readonly string[]).includes(state)) {
      throw invalid(`${field}.${state}`, `is not a printer state (${RULE_STATES.join(", ")})`);
    }
    rules[state as RuleState] = oneOf(
      action,
      ["on", "off", "ignore"] as const,
      `${field}.${state}`,
    );
  }
  return rules;
}

/** Parses a (partial) temperature rule and merges it into `base`. */
export function parseTempRule(value: unknown, base: TempRule, field = "temp_rule"): TempRule {
  if (!isRecord(value)) throw invalid(field, "must be an object");
  const rule = { ...base };
  for (const [key, item] of Object.entries(value)) {
    const name = `${field}.${key}`;
    if (key === "enabled") {
      if (typeof item !== "boolean") throw invalid(name, "must be true or false");
      rule.enabled = item;
    } else if (key === "sensor") {
      rule.sensor = oneOf(item, ["bed", "tool", "chamber"] as const, name);
    } else if (key === "threshold") {
      const n = typeof item === "string" && item.trim() !== "" ? Number(item) : item;
      if (typeof n !== "number" || !Number.isFinite(n)) throw invalid(name, "must be a number");
      rule.threshold = n;
    } else if (key === "above") {
      rule.above = oneOf(item, ["on", "off"] as const, name);
    } else {
      throw invalid(name, "is not a temperature rule field (enabled, sensor, threshold, above)");
    }
  }
  return rule;
}

/** Parses one stored channel entry (all fields optional) over its default. */
export function parseChannelConfig(
  value: Record<string, unknown>,
  base: ChannelConfig,
  field: string,
): ChannelConfig {
  const config = structuredClone(base);
  if ("label" in value) config.label = cleanLabel(value.label, `${field}.label`);
  if ("mode" in value) config.mode = parseMode(value.mode, `${field}.mode`);
  if ("manual_on" in value) {
    if (typeof value.manual_on !== "boolean") {
      throw invalid(`${field}.manual_on`, "must be true or false");
    }
    config.manual_on = value.manual_on;
  }
  if ("rules" in value) config.rules = parseRules(value.rules, config.rules, `${field}.rules`);
  if ("temp_rule" in value) {
    config.temp_rule = parseTempRule(value.temp_rule, config.temp_rule, `${field}.temp_rule`);
  }
  if ("failsafe" in value) config.failsafe = parseFailsafe(value.failsafe, `${field}.failsafe`);
  return config;
}

/** A 400 naming the invalid field. */
export function invalid(field: string, problem: string): AppError {
  return new UsageError(`Invalid setting '${field}': ${problem}`, { code: "invalid_setting" });
}

/** Whether a value is a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Returns `value` when it is one of `allowed`, else throws a 400 naming `field`. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) {
    return value as T;
  }
  throw invalid(field, `must be one of ${allowed.map((a) => `'${a}'`).join(", ")}`);
}
