/**
 * Where localbench keeps its files: the user config dir and the data dir (XDG), each overridable
 * with `LOCALBENCH_CONFIG_DIR` / `LOCALBENCH_DATA_DIR`.
 *
 * @module
 */
import { basename, isAbsolute, join, resolve } from "node:path";

/** Reads environment variables (injected so tests never touch the real environment). */
export type EnvReader = (name: string) => string | undefined;

/** Reads the process environment. */
export const processEnv: EnvReader = (name) => Deno.env.get(name);

function xdgBase(env: EnvReader, variable: string, fallback: string): string {
  const value = env(variable);
  // The XDG spec says relative paths are invalid and must be ignored.
  if (value && isAbsolute(value) && !value.split("/").includes("..")) return value;
  const home = env("HOME");
  if (!home) throw new Error(`Cannot locate the ${variable} folder: HOME is not set`);
  return join(home, fallback);
}

/** The user config dir: `$LOCALBENCH_CONFIG_DIR` or `$XDG_CONFIG_HOME/localbench`. */
export function configDir(env: EnvReader = processEnv): string {
  return env("LOCALBENCH_CONFIG_DIR") ||
    join(xdgBase(env, "XDG_CONFIG_HOME", ".config"), "localbench");
}

/** The data dir: `$LOCALBENCH_DATA_DIR` or `$XDG_DATA_HOME/localbench`. */
export function dataDir(env: EnvReader = processEnv): string {
  return env("LOCALBENCH_DATA_DIR") ||
    join(xdgBase(env, "XDG_DATA_HOME", join(".local", "share")), "localbench");
}

/** Paths derived from the two folders. */
export interface Paths {
  configDir: string;
  dataDir: string;
  /** `<config dir>/defaults.json` */
  userDefaults: string;
  /** `<config dir>/presets` */
  presetsDir: string;
  /** `<data dir>/results.db` */
  database: string;
  /** `<data dir>/results` (reports) */
  resultsDir: string;
  /** `<data dir>/logs` */
  logsDir: string;
  /** `<data dir>/host` (plugin host data) */
  hostDir: string;
}

/**
 * Where a file named on the command line is written (`--export-cache`, `--save-requests`): a
 * bare file name goes to the results folder, a path is taken as given (relative to `cwd`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputTarget } from "./paths.ts";
 * const paths = { resultsDir: "/data/results" };
 * assert.equal(outputTarget(paths, "r.jsonl"), "/data/results/r.jsonl");
 * assert.equal(outputTarget(paths, "out/r.jsonl", "/home/me"), "/home/me/out/r.jsonl");
 * ```
 */
export function outputTarget(
  paths: Pick<Paths, "resultsDir">,
  file: string,
  cwd = Deno.cwd(),
): string {
  if (basename(file) === file) return join(paths.resultsDir, file);
  return isAbsolute(file) ? file : resolve(cwd, file);
}

/**
 * Where the results are kept: `--store` (`flag`), else `$LOCALBENCH_STORE`, else the
 * configuration's `store.url`, else `<data dir>/results.db`. A `postgres://` URL or a SQLite file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storeLocation } from "./paths.ts";
 * const env = (n: string) => n === "LOCALBENCH_STORE" ? "postgres://u@db/lb" : undefined;
 * assert.equal(storeLocation({ database: "/d/results.db" }, { env }), "postgres://u@db/lb");
 * assert.equal(storeLocation({ database: "/d/results.db" }, { env, flag: "/x.db" }), "/x.db");
 * assert.equal(storeLocation({ database: "/d/results.db" }, { env: () => undefined }), "/d/results.db");
 * ```
 */
export function storeLocation(
  paths: Pick<Paths, "database">,
  given: { flag?: string | null; env?: EnvReader; configured?: string | null },
): string {
  return given.flag || (given.env ?? processEnv)("LOCALBENCH_STORE") || given.configured ||
    paths.database;
}

/** Resolves every path from the environment. */
export function resolvePaths(env: EnvReader = processEnv): Paths {
  const config = configDir(env);
  const data = dataDir(env);
  return {
    configDir: config,
    dataDir: data,
    userDefaults: join(config, "defaults.json"),
    presetsDir: join(config, "presets"),
    database: join(data, "results.db"),
    resultsDir: join(data, "results"),
    logsDir: join(data, "logs"),
    hostDir: join(data, "host"),
  };
}
