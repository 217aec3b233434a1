/**
 * The commander program built from the flag table, and the pure parser of an argument vector.
 *
 * @module
 */
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import * as v from "valibot";
import { withoutLeadingDashDash } from "../args.ts";
import { CONFIG_SCHEMA } from "../config/mod.ts";
import { badRequest } from "../error.ts";
import { fieldAt, integer, number, text } from "../schema/mod.ts";
import { CATEGORIES, FLAGS, type FlagSpec } from "./flags.ts";

/** Parsed flags: only the values given on the command line (or by a preset), by key. */
export type Flags = Record<string, string | number | boolean | string[] | number[]>;

/** Result of {@linkcode parseFlags}. */
export type ParseResult = { help: string } | { flags: Flags; positionals: string[] };

/**
 * The schema of one value of a flag: the configuration field the flag sets (its type, range and
 * message), or else a field of the flag's own kind and bounds.
 */
function fieldOf(spec: FlagSpec): v.GenericSchema {
  if (spec.config) return fieldAt(CONFIG_SCHEMA, spec.config);
  const bounds = { min: spec.min, max: spec.max, exclusiveMin: spec.exclusiveMin };
  if (spec.kind === "int" || spec.kind === "ints") return integer(bounds);
  if (spec.kind === "float" || spec.kind === "floats") return number(bounds);
  return text({ nonEmpty: true });
}

/** Checks a parsed value with the flag's schema; commander shows `Must be <phrase>.`. */
function checked<T>(field: v.GenericSchema, value: T): T {
  const result = v.safeParse(field, value, { abortEarly: true });
  if (!result.success) throw new InvalidArgumentError(`Must be ${result.issues[0].message}.`);
  return value;
}

function numberParser(spec: FlagSpec): (raw: string) => number {
  const integerKind = spec.kind === "int" || spec.kind === "ints";
  const field = fieldOf(spec);
  return (raw) => {
    const text = raw.trim();
    const ok = integerKind
      ? /^[+-]?\d+$/.test(text)
      : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text);
    return checked(field, ok ? Number(text) : Number.NaN);
  };
}

function valueParser(spec: FlagSpec): ((raw: string) => unknown) | null {
  switch (spec.kind) {
    case "int":
    case "float":
      return numberParser(spec);
    case "ints":
    case "floats": {
      const one = numberParser(spec);
      return (raw) => {
        const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
        if (items.length === 0) throw new InvalidArgumentError("Must list at least one value.");
        if (items.length > 32) throw new InvalidArgumentError("Must list at most 32 values.");
        const values = items.map((item) => {
          try {
            return one(item);
          } catch (err) {
            throw new InvalidArgumentError(
              `'${item}': ${(err as Error).message.replace(/\.$/, "")} (each value).`,
            );
          }
        });
        return [...new Set(values)];
      };
    }
    case "list":
      return (raw) => {
        const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
        if (items.length === 0) throw new InvalidArgumentError("Must list at least one value.");
        return items;
      };
    case "regex":
      return (raw) => {
        try {
          new RegExp(raw, "i");
        } catch (err) {
          throw new InvalidArgumentError(
            `Not a valid regular expression: ${(err as Error).message}.`,
          );
        }
        return raw;
      };
    case "url":
      return (raw) => {
        let url: URL;
        try {
          url = new URL(raw);
        } catch {
          throw new InvalidArgumentError("Not a valid URL.");
        }
        if (!["http:", "https:"].includes(url.protocol)) {
          throw new InvalidArgumentError("Must be an http:// or https:// URL.");
        }
        return raw.replace(/\/+$/, "");
      };
    case "string": {
      const field = fieldOf(spec);
      return (raw) => checked(field, raw);
    }
    default:
      return null;
  }
}

/** Commander's attribute name of a flag (`no-mmap` → `mmap`, `n-gpu-layers` → `nGpuLayers`). */
function attributeOf(spec: FlagSpec): string {
  const name = spec.long.startsWith("no-") ? spec.long.slice(3) : spec.long;
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Options of {@linkcode buildProgram}. */
export interface ProgramOptions {
  /** Default shown in the help per flag key (the effective configuration value). */
  helpDefaults?: Record<string, unknown>;
  /** Program name in the usage line. @default "localbench" */
  name?: string;
}

/** Builds the commander program (used for parsing and for the help text). */
export function buildProgram(options: ProgramOptions = {}): Command {
  const program = new Command(options.name ?? "localbench")
    .description(
      "Benchmark the language models of a local model server (LM Studio, llama.cpp, any OpenAI-compatible server).",
    )
    .helpOption("-h, --help", "show this help and exit")
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  for (const category of CATEGORIES) {
    for (const spec of FLAGS.filter((s) => s.category === category)) {
      const names = `${spec.short ? `-${spec.short}, ` : ""}--${spec.long}`;
      const arg = spec.kind === "bool" ? "" : ` <${spec.arg ?? "value"}>`;
      const option = new Option(names + arg, spec.description).helpGroup(`${category} options:`);
      if (spec.kind === "choice" && spec.choices) option.choices(spec.choices as string[]);
      const parser = valueParser(spec);
      if (parser) option.argParser(parser);
      const shown = options.helpDefaults?.[spec.key] ?? spec.fallback;
      if (shown !== undefined && shown !== null && spec.value !== false) {
        option.default(shown, spec.key === "api_token" ? "set" : JSON.stringify(shown));
      }
      program.addOption(option);
    }
  }
  program.options.find((o) => o.long === "--help")?.helpGroup("Other options:");
  return program;
}

/** Rewrites alias spellings (`--top-k-sampling`) to their flag. */
function applyAliases(argv: string[]): string[] {
  const aliases = new Map<string, string>();
  for (const spec of FLAGS) {
    for (const a of spec.aliases ?? []) aliases.set(`--${a}`, `--${spec.long}`);
  }
  return argv.map((arg) => {
    const [name, ...rest] = arg.split("=");
    const target = aliases.get(name!);
    return target ? [target, ...rest].join("=") : arg;
  });
}

/**
 * Parses an argument vector into the flags given on it. Invalid values and unknown options throw
 * an `AppError` 400 (exit code 2) with commander's message; `--help` returns the help text.
 */
export function parseFlags(argv: string[], options: ProgramOptions = {}): ParseResult {
  const program = buildProgram(options);
  try {
    program.parse(applyAliases(withoutLeadingDashDash(argv)), { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.help") {
        return { help: program.helpInformation() };
      }
      throw badRequest(err.message.replace(/^error: /, ""), "invalid_argument");
    }
    throw err;
  }
  const flags: Flags = {};
  const setBy = new Map<string, string>();
  for (const spec of FLAGS) {
    const attr = attributeOf(spec);
    if (program.getOptionValueSource(attr) !== "cli") continue;
    const value = program.opts()[attr];
    if (spec.kind !== "bool") {
      flags[spec.key] = value;
      continue;
    }
    // `--flash-attention`/`--no-flash-attention` share one attribute (handled by the positive
    // flag); `--no-mmap` has an attribute of its own and means `use_mmap = false`.
    const negated = spec.long.startsWith("no-");
    if (negated && FLAGS.some((s) => s.long === spec.long.slice(3))) continue;
    const given = negated ? false : Boolean(value);
    const other = setBy.get(spec.key);
    if (other !== undefined && flags[spec.key] !== given) {
      throw badRequest(`options '--${other}' and '--${spec.long}' contradict each other`);
    }
    flags[spec.key] = given;
    setBy.set(spec.key, spec.long);
  }
  return { flags, positionals: program.args };
}
