/**
 * Small fakes of the plugin context for the branch controller tests: a manual clock, a printer
 * that emits states and temperatures, an in-memory settings access validated by the plugin's own
 * descriptor, captured pushes and log lines, and a bounded wait.
 *
 * @module
 */
import { MemorySettings } from "../../_memory_settings.ts";
import type {
  HeaterReading,
  PluginContext,
  PrinterAccess,
  PrinterEvent,
  PrinterSnapshot,
  PrinterState,
  Settings,
  TemperatureSample,
} from "../../../lib/host/plugin.ts";
import { createLogger } from "../../../lib/log.ts";
import { plugin } from "../../../plugins/branchplus/mod.ts";

import { ManualClock as FakeClock } from "../../_fake_clock.ts";
import type { BranchSettings } from "../../../plugins/branchplus/settings.ts";

export { FakeClock };

/** A printer whose state and temperatures the test sets. */
export class FakePrinter implements PrinterAccess {
  state: PrinterState = "OPERATIONAL";
  temperatures: Record<string, HeaterReading> = {};
  #listeners = new Set<(event: PrinterEvent) => void>();

  snapshot(): PrinterSnapshot {
    return { state: this.state, temperatures: structuredClone(this.temperatures), time: 0 };
  }

  history(): TemperatureSample[] {
    return [];
  }

  subscribe(listener: (event: PrinterEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Number of subscribers (to check that the plugin unsubscribes). */
  get listeners(): number {
    return this.#listeners.size;
  }

  setState(state: PrinterState): void {
    const previous = this.state;
    this.state = state;
    for (const l of [...this.#listeners]) l({ type: "state", state, previous });
  }

  setTemperature(heater: string, actual: number): void {
    this.temperatures[heater] = { actual, target: null };
    const snapshot = this.snapshot();
    for (const l of [...this.#listeners]) l({ type: "temperatures", snapshot });
  }
}

/** A context plus handles on its fakes. */
export interface FakeContext {
  ctx: PluginContext<BranchSettings>;
  clock: FakeClock;
  printer: FakePrinter;
  settings: MemorySettings<BranchSettings>;
  pushes: Record<string, unknown>[];
  /** Every line the plugin logged (debug and up), oldest first. */
  logs: string[];
}

/** Builds a plugin context of fakes; `settings` are the initial stored values. */
export function fakeContext(settings: Settings = {}): FakeContext {
  const clock = new FakeClock();
  const printer = new FakePrinter();
  const store = new MemorySettings(plugin, settings);
  const pushes: Record<string, unknown>[] = [];
  const logs: string[] = [];
  const ctx: PluginContext<BranchSettings> = {
    id: "branchplus",
    logger: createLogger("test.branchplus", {
      level: "debug",
      sink: (_l, line) => logs.push(line),
    }),
    clock,
    dataDir: "/nonexistent",
    logDir: "/nonexistent",
    settings: store,
    printer,
    push: (data) => pushes.push(structuredClone(data)),
    env: {},
  };
  return { ctx, clock, printer, settings: store, pushes, logs };
}

/** Lets pending socket events run. */
export function settle(ms = 30): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
