/**
 * The benchmark's command-line arguments as one table: the 49 of the seed (45 named there plus
 * `--debug`, `--no-flash-attention`, `--no-mmap` and `--help`) and our additions (`--backend`,
 * `--base-url`, `--request-timeout`, `--print-config`, the workload and load-curve arguments,
 * `--list-models`, `--json`). The parser and the help text are generated from it.
 *
 * @module
 */
import { CONFIG_SCHEMA } from "../config/mod.ts";
import { fieldAt, fieldInfo } from "../schema/mod.ts";
import { MODEL_FLAGS } from "./flags_model.ts";
import { RUN_FLAGS } from "./flags_run.ts";
import { OUTPUT_FLAGS, WORKLOAD_FLAGS } from "./flags_workload.ts";

/** Value kinds. */
export type FlagKind =
  | "bool"
  | "int"
  | "float"
  | "string"
  | "list"
  | "ints"
  | "floats"
  | "choice"
  | "regex"
  | "url";

/** Whether a kind takes a comma-separated list. */
export function isListKind(kind: FlagKind): boolean {
  return kind === "list" || kind === "ints" || kind === "floats";
}

/** Help categories, in the seed's order. */
export const CATEGORIES = [
  "Basic",
  "Presets",
  "Filter",
  "Cache",
  "Profiling",
  "Inference",
  "Load",
  "REST",
  "Comparison",
  "Workload",
  "Backend",
  "Other",
] as const;

/** One argument. */
export interface FlagSpec {
  /** Long name without dashes, e.g. `runs`, `no-mmap`. */
  long: string;
  short?: string;
  /** Key in the parsed flags (snake_case); `--no-mmap` writes `use_mmap = false`. */
  key: string;
  kind: FlagKind;
  category: typeof CATEGORIES[number];
  description: string;
  /** For `bool`: the value written when the flag is given. @default true */
  value?: boolean;
  /** Name of the value in the help (`<n>`). */
  arg?: string;
  /** Bounds and choices: only for a flag without `config` (else the schema's, filled in). */
  min?: number;
  max?: number;
  /** Minimum is exclusive (e.g. sizes > 0). */
  exclusiveMin?: boolean;
  choices?: readonly string[];
  /** Default shown in help when no configuration value applies. */
  fallback?: string | number | boolean;
  /**
   * Where the configuration holds this value (dotted path): the help shows its value as the
   * default, and the value is checked by that field of the configuration schema.
   */
  config?: string;
  /** Extra spellings accepted (rewritten before parsing). */
  aliases?: string[];
}

/** A flag that sets a configuration field, with the field's bounds and choices (one source). */
function withSchemaBounds(spec: FlagSpec): FlagSpec {
  const info = spec.config ? fieldInfo(fieldAt(CONFIG_SCHEMA, spec.config)) : undefined;
  if (info === undefined) return spec;
  const { min, max, exclusiveMin, options } = info;
  return { ...spec, min, max, exclusiveMin, ...(options ? { choices: options } : {}) };
}

/**
 * The flags that are actions or outputs of the command line (print, write or read something),
 * not benchmark settings: neither a preset nor the dashboard's form sets them (a file name from a
 * web form would be a path a page chooses: `--dataset` reads one).
 */
export const ACTION_FLAGS: ReadonlySet<string> = new Set([
  "list_presets",
  "list_cache",
  "export_cache",
  "export_only",
  "import",
  "store",
  "store_copy_to",
  "print_config",
  "list_models",
  "json",
  "save_requests",
  "percentiles",
  "dataset",
]);

/** Every argument, in help order. */
export const FLAGS: readonly FlagSpec[] = [
  ...RUN_FLAGS,
  ...MODEL_FLAGS,
  ...WORKLOAD_FLAGS,
  ...OUTPUT_FLAGS,
].map(withSchemaBounds);

/** Our additions to the seed's arguments. */
export const ADDED_FLAGS: readonly string[] = [
  "backend",
  "base-url",
  "request-timeout",
  "print-config",
  "import",
  "store",
  "store-copy-to",
  ...WORKLOAD_FLAGS.map((f) => f.long),
  ...OUTPUT_FLAGS.map((f) => f.long),
];

/** The flags of the seed's 49 (everything but our additions), `--help` included. */
export const SEED_FLAG_COUNT = FLAGS.filter((s) => !ADDED_FLAGS.includes(s.long)).length + 1;
