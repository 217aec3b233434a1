/**
 * Reload detection: a run during which the server loaded the model again measures the load, not
 * the model (a model server killed under llama.cpp's router: TTFT 189 ms instead of 17 ms). Such
 * a run is marked and left out of the statistics. The signs: the server reports a load in the
 * run's own stats (LM Studio's `model_load_time_seconds`, the `model_load.*` events), or the
 * identity of the model's load changed across the run (llama.cpp's router: its model server's
 * port, see {@linkcode Backend.loadMarker}).
 *
 * @module
 */
import type { Backend, ChatResult } from "../modelserver/mod.ts";

/** Watches one model's load across its measured runs. */
export class ReloadWatch {
  readonly #backend: Backend;
  readonly #key: string;
  /** The load identity after the last run (undefined: not known yet; null: not told). */
  #marker: string | null | undefined = undefined;

  constructor(backend: Backend, key: string) {
    this.#backend = backend;
    this.#key = key;
  }

  async #read(instanceId: string): Promise<string | null> {
    return await this.#backend.loadMarker?.(this.#key, instanceId).catch(() => null) ?? null;
  }

  /** Takes the baseline (after the load and warmup, and after a reload of our own). */
  async baseline(instanceId: string): Promise<void> {
    this.#marker = await this.#read(instanceId);
  }

  /** Why the run of `result` included a load of the model, or null; moves the baseline on. */
  async check(instanceId: string, result: ChatResult): Promise<string | null> {
    const load = result.stats.model_load_time_ms ?? null;
    if (load !== null) {
      await this.baseline(instanceId);
      return `the server loaded the model during the run (${Math.round(load)} ms)`;
    }
    if (this.#backend.loadMarker === undefined) return null;
    const before = this.#marker;
    const after = await this.#read(instanceId);
    this.#marker = after;
    if (before === undefined || before === null || after === null || before === after) return null;
    return `the server loaded the model again during the run (its load changed from ${before} to ${after})`;
  }
}

/** The TTFT of an excluded run against the median of the others, for the message. */
export function ttftContext(ttft: number | null, others: readonly (number | null)[]): string {
  const xs = others.filter((v): v is number => typeof v === "number").sort((a, b) => a - b);
  if (ttft === null) return "";
  if (xs.length === 0) return `; TTFT ${ttft.toFixed(0)} ms`;
  const mid = xs[Math.floor((xs.length - 1) / 2)]!;
  return `; TTFT ${ttft.toFixed(0)} ms against a median of ${mid.toFixed(0)} ms`;
}
