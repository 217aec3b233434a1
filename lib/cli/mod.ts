/**
 * The benchmark command line.
 *
 * @module
 */
export { ACTION_FLAGS, CATEGORIES, FLAGS, isListKind, SEED_FLAG_COUNT } from "./flags.ts";
export type { FlagKind, FlagSpec } from "./flags.ts";
export { buildProgram, parseFlags } from "./program.ts";
export type { Flags, ParseResult, ProgramOptions } from "./program.ts";
export { configPathOf, flagsToOverrides, flagsToRunOptions } from "./options.ts";
export { presetToArgs } from "./presets_args.ts";
export { resolveInvocation } from "./invocation.ts";
export type { Invocation, ResolveOptions } from "./invocation.ts";
export { configJson, layersText, listPresetsText } from "./actions.ts";
export { runCli } from "./main.ts";
export type { BenchmarkRunner, CliOptions } from "./main.ts";
