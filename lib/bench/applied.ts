/**
 * Honest parameters: every load and sampling value as requested and as applied. What a backend
 * can set is known up front (its API); what the server really runs with is read back after the
 * load where the server reports it (llama.cpp `/props` and the router's arguments, LM Studio's
 * `load_config`, the SDK's load config). A value the backend cannot set is "not applied"; one the
 * server changed is "changed"; an option that does nothing in this setting is "ignored".
 *
 * @module
 */
import { type BackendKind, builtInDefaults, type Config } from "../config/mod.ts";
import { canSet } from "../backend_caps.ts";
import type { ServerConfig } from "../modelserver/mod.ts";

/** How a requested value reached the server. */
export type AppliedStatus = "applied" | "changed" | "not_applied" | "ignored" | "default" | "sent";

/** One value, requested and applied. */
export interface AppliedValue {
  requested: unknown;
  /** What the server runs with: the server's report, else the value sent, else null (unknown). */
  applied: unknown;
  status: AppliedStatus;
  note?: string;
}

/** Every value by name (`context_length`, `load.n_batch`, `inference.temperature`, ...). */
export type AppliedParams = Record<string, AppliedValue>;

/** Statuses that reports mark "not applied". */
export const NOT_APPLIED: ReadonlySet<AppliedStatus> = new Set([
  "not_applied",
  "changed",
  "ignored",
]);

type LoadKey = keyof Config["load"];

/** Why a backend cannot set a value, shown in reports. */
const WHY: Record<BackendKind, string> = {
  sdk: "the LM Studio SDK has no setting for it",
  rest: "LM Studio's REST v1 load has no field for it (use the SDK backend)",
  openai: "an OpenAI-compatible server takes its load settings on its own command line",
};

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) < 1e-6;
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  return a === b;
}

function loadValue(
  backend: BackendKind,
  key: string,
  requested: unknown,
  server: ServerConfig | null,
): AppliedValue {
  const reported = server?.[key as keyof ServerConfig];
  const known = reported !== undefined;
  const asDefault = requested === null || (key === "n_threads" && requested === -1);
  if (!canSet(backend, key)) {
    return {
      requested,
      applied: known ? reported : null,
      status: asDefault
        ? "default"
        : known && sameValue(reported, requested)
        ? "applied"
        : "not_applied",
      ...(asDefault ? {} : { note: WHY[backend] }),
    };
  }
  if (asDefault) return { requested, applied: known ? reported : null, status: "default" };
  if (backend === "sdk" && key === "n_gpu_layers" && typeof requested === "number") {
    // The SDK takes a ratio: -1 and any positive count become "max", 0 "off".
    if (requested > 0) {
      return {
        requested,
        applied: "max",
        status: "changed",
        note: "the SDK offloads all layers or none (a GPU ratio), not a layer count",
      };
    }
    return { requested, applied: requested === 0 ? "off" : "max", status: "applied" };
  }
  if (known && !sameValue(reported, requested)) {
    return {
      requested,
      applied: reported,
      status: "changed",
      note: "the server reports another value",
    };
  }
  return { requested, applied: known ? reported : requested, status: "applied" };
}

/** Inputs of {@linkcode appliedParams}. */
export interface AppliedInput {
  config: Config;
  backend: BackendKind;
  /** `--n-parallel` and `--unified-kv-cache`. */
  n_parallel: number;
  unified_kv_cache: boolean;
  /** Whether the server is llama.cpp (it applies every sampling value of the request). */
  llamacpp?: boolean;
  /** What the server reported after the load, null when nothing. */
  server?: ServerConfig | null;
  /** `--max-temp` / `--max-power` and whether each can act (profiling on, sensor present). */
  limits?: {
    max_temp: number | null;
    max_power: number | null;
    temp_active: boolean;
    power_active: boolean;
  };
}

/** The requested and applied value of every load, sampling and parallelism setting. */
export function appliedParams(input: AppliedInput): AppliedParams {
  const { config, backend } = input;
  const server = input.server ?? null;
  const out: AppliedParams = {};
  out.context_length = loadValue(backend, "context_length", config.context_length, server);
  for (const key of Object.keys(config.load) as LoadKey[]) {
    out[`load.${key}`] = loadValue(backend, key, config.load[key], server);
  }
  const sampling: AppliedStatus = backend === "openai" && !input.llamacpp ? "sent" : "applied";
  for (const [key, value] of Object.entries(config.inference)) {
    out[`inference.${key}`] = {
      requested: value,
      applied: value,
      status: sampling,
      ...(sampling === "sent"
        ? { note: "sent with every request; the server does not confirm it uses it" }
        : {}),
    };
  }
  if (backend === "sdk") {
    out.n_parallel = {
      requested: input.n_parallel,
      applied: 1,
      status: input.n_parallel > 1 ? "ignored" : "applied",
      ...(input.n_parallel > 1 ? { note: "SDK mode sends one request at a time" } : {}),
    };
  } else {
    out.n_parallel = {
      requested: input.n_parallel,
      applied: input.n_parallel,
      status: "applied",
      note: `concurrent requests of the parallel rounds${
        server?.parallel !== undefined ? `; the server runs ${server.parallel} slot(s)` : ""
      }`,
    };
  }
  out.unified_kv_cache = {
    requested: input.unified_kv_cache,
    applied: null,
    status: input.unified_kv_cache ? "ignored" : "default",
    ...(input.unified_kv_cache
      ? { note: "no backend API here can set it (LM Studio's REST v1 load and SDK 1.5.0 lack it)" }
      : {}),
  };
  const limits = input.limits;
  for (
    const [name, value, active] of [
      ["max_temp", limits?.max_temp ?? null, limits?.temp_active ?? false],
      ["max_power", limits?.max_power ?? null, limits?.power_active ?? false],
    ] as const
  ) {
    if (value === null) continue;
    out[name] = {
      requested: value,
      applied: active ? value : null,
      status: active ? "applied" : "ignored",
      ...(active ? {} : { note: "needs --enable-profiling and a GPU sensor" }),
    };
  }
  return out;
}

/** Names of the values reports mark "not applied". */
export function notAppliedNames(applied: AppliedParams): string[] {
  return Object.entries(applied).filter(([, v]) => NOT_APPLIED.has(v.status)).map(([k]) => k);
}

/**
 * The values a backend cannot set that differ from the built-in defaults (what the user asked
 * for), as `name=value` texts for the one warning of a job.
 */
export function unsettableRequests(config: Config, backend: BackendKind): string[] {
  const defaults = builtInDefaults();
  const out: string[] = [];
  if (!canSet(backend, "context_length") && config.context_length !== defaults.context_length) {
    out.push(`context_length=${config.context_length}`);
  }
  for (const key of Object.keys(config.load) as LoadKey[]) {
    const value = config.load[key];
    if (canSet(backend, key) || value === defaults.load[key]) continue;
    out.push(`${key}=${value}`);
  }
  return out;
}
