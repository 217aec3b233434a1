/**
 * The build stamp (`engine.json`): written last by `deno task engine:setup` once `llama-server` is
 * built and installed, read by {@linkcode findEngine} and by the setup's "already done" check.
 *
 * @module
 */

import { isPlainObject } from "../shared/json_object.ts";

/** What was built, from what, and how long it took. */
export interface EngineStamp {
  /** node-llama-cpp version the source came from. */
  nodeLlamaCpp: string;
  /** llama.cpp commit that was built. */
  llamaCppCommit: string;
  /** CMake `-D` flags used. */
  cmakeFlags: string[];
  /** Ninja targets built. */
  targets: string[];
  /** ISO time the build finished. */
  builtAt: string;
  /** Wall time of configure + build, in seconds. */
  buildSeconds: number;
}

/**
 * Validates parsed JSON as a stamp.
 *
 * @throws {TypeError} when a field is missing or has the wrong type
 */
export function parseStamp(value: unknown): EngineStamp {
  if (!isPlainObject(value)) throw new TypeError("Cannot read engine stamp: not an object");
  const s = value;
  const strings = (key: string): string[] => {
    const v = s[key];
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) {
      throw new TypeError(`Cannot read engine stamp: '${key}' is not a list of strings`);
    }
    return v;
  };
  const text = (key: string): string => {
    const v = s[key];
    if (typeof v !== "string") {
      throw new TypeError(`Cannot read engine stamp: '${key}' is not a string`);
    }
    return v;
  };
  const seconds = s.buildSeconds;
  if (typeof seconds !== "number") {
    throw new TypeError("Cannot read engine stamp: 'buildSeconds' is not a number");
  }
  return {
    nodeLlamaCpp: text("nodeLlamaCpp"),
    llamaCppCommit: text("llamaCppCommit"),
    cmakeFlags: strings("cmakeFlags"),
    targets: strings("targets"),
    builtAt: text("builtAt"),
    buildSeconds: seconds,
  };
}

/** Reads and validates a stamp file; `null` when it does not exist or is unreadable. */
export function readStampSync(path: string): EngineStamp | null {
  try {
    return parseStamp(JSON.parse(Deno.readTextFileSync(path)));
  } catch (err) {
    if (
      err instanceof Deno.errors.NotFound || err instanceof SyntaxError || err instanceof TypeError
    ) {
      return null;
    }
    throw err;
  }
}
