/**
 * The arguments of `deno task agent`: its own flags, and the benchmark arguments every job it
 * runs starts from (this machine's model server: `--backend rest --base-url URL`, …).
 *
 * @module
 */
import { parseOptions, splitOptions } from "../args.ts";
import { badRequest } from "../error.ts";
import { checkAgentName } from "./names.ts";

const OPTIONS = {
  store: { type: "string" },
  name: { type: "string" },
  "heartbeat-seconds": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Parsed agent arguments. */
export interface AgentArgs {
  /** The shared store's URL (`--store`, else `$LOCALBENCH_STORE`); null when neither is given. */
  store: string | null;
  /** The agent's name (`--name`, else this machine's host name). */
  name: string;
  /** Seconds without a heartbeat before a job of this agent fails. */
  heartbeatSeconds: number;
  help: boolean;
  /** Benchmark arguments put before every job's own. */
  benchArgs: string[];
}

/** Help text of `deno task agent`. */
export const AGENT_USAGE =
  `Usage: deno task agent -- --store URL [--name NAME] [options] [benchmark arguments]
  --store URL     the shared PostgreSQL store (postgres://user:password@host:5432/db)
                  [default: $LOCALBENCH_STORE]
  --name NAME     the name the dashboard shows and sends jobs to   [default: this host's name]
  --heartbeat-seconds N  silence after which a job of this agent fails (≥ 10)  [default: 30]
  -h, --help      show this help
Benchmark arguments (e.g. --backend rest --base-url URL) are put before every job's own.
The agent opens no port: it needs only the database's credentials.`;

/**
 * Parses the agent's arguments; `env` gives `LOCALBENCH_STORE`, `hostname` the default name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAgentArgs } from "./agent_args.ts";
 * const a = parseAgentArgs(["--name", "box", "--runs", "2"], () => "postgres://h/db", () => "x");
 * assert.deepEqual([a.name, a.store, a.benchArgs], ["box", "postgres://h/db", ["--runs", "2"]]);
 * ```
 */
export function parseAgentArgs(
  argv: string[],
  env: (name: string) => string | undefined,
  hostname: () => string,
): AgentArgs {
  const { own, rest } = splitOptions(argv, OPTIONS);
  const { values: v } = parseOptions({ args: own, options: OPTIONS });
  for (const name of ["store", "name"] as const) {
    if (v[name] === "") throw badRequest(`Option '--${name}' needs a value`);
  }
  const heartbeat = v["heartbeat-seconds"] ?? "30";
  if (!/^\d+$/.test(heartbeat) || Number(heartbeat) < 10 || Number(heartbeat) > 3600) {
    throw badRequest(`Invalid --heartbeat-seconds '${heartbeat}': use a whole number 10..3600`);
  }
  const fallback = hostname().split(".")[0]?.replace(/[^A-Za-z0-9_.-]/g, "-") || "agent";
  return {
    store: v.store ?? env("LOCALBENCH_STORE") ?? null,
    name: checkAgentName(v.name ?? fallback),
    heartbeatSeconds: Number(heartbeat),
    help: v.help ?? false,
    benchArgs: rest,
  };
}
