/**
 * Arguments of the small programs. `deno task X -- opts` hands the program a literal `--` as its
 * first argument (Deno passes it through): every program of this project drops it, so the
 * README's form (`deno task bench -- --runs 1`) and the bare form mean the same. Every program
 * parses with {@linkcode parseOptions} (`node:util`'s `parseArgs`) but the benchmark, whose flag
 * table has its own parser (commander: help from the table); the web app and the entry script
 * take their own options out with {@linkcode splitOptions} and pass the rest on to it.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig, type ParseArgsOptionsConfig } from "node:util";
import { UsageError } from "./error.ts";

/**
 * The arguments without a leading `--` (a `--` further on keeps its usual meaning).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutLeadingDashDash } from "./args.ts";
 * assert.equal(withoutLeadingDashDash(["--", "--help"]).join(), "--help");
 * ```
 */
export function withoutLeadingDashDash(argv: readonly string[]): string[] {
  return argv[0] === "--" ? argv.slice(1) : [...argv];
}

/** A refusal of `node:util`'s parser in the project's words. */
function refusal(err: Error & { code?: string }): string | null {
  const named = /'([^']*)'/.exec(err.message)?.[1] ?? "";
  const option = named.replace(/ <value>$/, "").split(", ").pop()!; // "-p, --port" → "--port"
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown argument '${option}'`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${option}'`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /does not take/.test(err.message)
        ? `${option} takes no value`
        : `${option} needs a value (write ${option}=VALUE for one that starts with '-')`;
    default:
      return null;
  }
}

/**
 * `node:util`'s `parseArgs` (after {@linkcode withoutLeadingDashDash}) with its refusals as a
 * {@linkcode UsageError} (HTTP 400, exit code 2): `Cannot parse arguments: unknown argument
 * '--x'`, `... --url needs a value`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseOptions } from "./args.ts";
 * const options = { port: { type: "string" } } as const;
 * assert.equal(parseOptions({ args: ["--", "--port", "8"], options }).values.port, "8");
 * assert.throws(() => parseOptions({ args: ["--nope"], options }), /unknown argument '--nope'/);
 * assert.throws(() => parseOptions({ args: ["--port"], options }), /--port needs a value/);
 * ```
 */
export function parseOptions<T extends ParseArgsConfig & { args: string[] }>(
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs({ ...config, args: withoutLeadingDashDash(config.args) });
  } catch (err) {
    const text = err instanceof TypeError ? refusal(err) : null;
    if (text === null) throw err;
    throw new UsageError(`Cannot parse arguments: ${text}`, { cause: err });
  }
}

/**
 * Splits arguments into a program's own options (with their values: parse them with
 * {@linkcode parseOptions}) and the rest, in order, for the program it passes them on to. A
 * cluster of short flags is the program's only when every letter is; after `--` all is the rest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitOptions } from "./args.ts";
 * const options = { port: { type: "string" }, dev: { type: "boolean" } } as const;
 * assert.deepEqual(splitOptions(["--runs", "2", "--port", "8", "--dev"], options), {
 *   own: ["--port", "8", "--dev"],
 *   rest: ["--runs", "2"],
 * });
 * ```
 */
export function splitOptions(
  args: readonly string[],
  options: ParseArgsOptionsConfig,
): { own: string[]; rest: string[] } {
  const argv = withoutLeadingDashDash(args);
  const { tokens } = parseArgs({
    args: argv,
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const own = new Set<number>();
  const foreign = new Set<number>();
  for (const t of tokens) {
    if (t.kind === "option-terminator") break;
    if (t.kind !== "option") continue;
    if (!Object.hasOwn(options, t.name)) foreign.add(t.index);
    else own.add(t.index).add(t.value !== undefined && !t.inlineValue ? t.index + 1 : t.index);
  }
  const mine = (i: number) => own.has(i) && !foreign.has(i);
  return { own: argv.filter((_, i) => mine(i)), rest: argv.filter((_, i) => !mine(i)) };
}
