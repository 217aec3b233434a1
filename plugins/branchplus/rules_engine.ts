/**
 * The rules engine at run time: reads the printer, plans the switches (pure, `rules.ts`), keeps
 * the temperature latches, rate-limits per channel with deferral, and remembers states it sent
 * until the hub reports them back (so a switch is not sent twice while its broadcast is on the
 * way, and the startup behaviour's switches count as done).
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import type { PrinterAccess, PrinterSnapshot } from "../../lib/host/mod.ts";
import type { Logger } from "../../lib/log.ts";
import type { HubClient } from "./powerhub_client.ts";
import { channelKey, type ChannelKind, type ChannelStates } from "./layout.ts";
import { createSwitchLimiter, type SwitchLimiter } from "./rate_limit.ts";
import { planSwitches } from "./rules.ts";
import { sensorReading } from "./temp_rule.ts";
import type { BranchSettings } from "./settings.ts";

/** Options of {@linkcode RulesEngine}. */
export interface RulesEngineOptions {
  clock: Clock;
  logger: Logger;
  /** Current settings, read on every run. */
  settings(): BranchSettings;
  /** Re-runs the whole engine (called when a deferred switch falls due). */
  retry(): void;
}

/** Runs the rules against the hub; one per controller. */
export class RulesEngine {
  readonly #options: RulesEngineOptions;
  readonly #limiter: SwitchLimiter;
  #latches = new Map<string, boolean>();
  #intended = new Map<string, 0 | 1>();

  constructor(options: RulesEngineOptions) {
    this.#options = options;
    this.#limiter = createSwitchLimiter({
      clock: options.clock,
      intervalMs: () => options.settings().min_switch_interval * 1000,
    });
  }

  /** Treats `on` as the channel's state until the hub reports that channel. */
  noteSent(kind: ChannelKind, id: number, on: boolean): void {
    this.#intended.set(channelKey(kind, id), on ? 1 : 0);
  }

  /**
   * A user switched a channel: treated as sent, and the engine leaves that channel alone for
   * `min_switch_interval` (a rule evaluation cannot undo the command at once).
   */
  noteUserSwitch(kind: ChannelKind, id: number, on: boolean): void {
    this.noteSent(kind, id, on);
    this.#limiter.record(channelKey(kind, id));
  }

  /**
   * After a planned restart: a temperature rule whose channel the hub reports in its active
   * state, with a reading still inside the hysteresis band, is taken as active (as it was before
   * the restart), so the restart does not switch the channel.
   */
  resumeLatches(states: ChannelStates, printer: PrinterAccess): void {
    const s = this.#options.settings();
    let temperatures: PrinterSnapshot["temperatures"] = {};
    try {
      temperatures = printer.snapshot().temperatures;
    } catch {
      return;
    }
    for (const c of s.channels) {
      if (c.mode !== "auto" || !c.temp_rule.enabled) continue;
      const reading = sensorReading(c.temp_rule.sensor, temperatures);
      const on = states[c.kind]?.[String(c.id)] === 1;
      const activeOutput = (c.temp_rule.above === "on") === on;
      if (
        reading !== undefined && activeOutput && reading > c.temp_rule.threshold - s.temp_hysteresis
      ) {
        this.#latches.set(channelKey(c.kind, c.id), true);
      }
    }
  }

  /** Forgets sent states for every channel a hub frame mentioned. */
  noteReported(reported: ChannelStates): void {
    for (const [kind, ids] of Object.entries(reported)) {
      for (const id of Object.keys(ids ?? {})) this.#intended.delete(`${kind}:${id}`);
    }
  }

  /** Forgets every sent state (the connection is gone). */
  forgetSent(): void {
    this.#intended.clear();
  }

  /** Cancels the deferred retry and forgets switch times and sent states. */
  reset(): void {
    this.#limiter.reset();
    this.#intended.clear();
  }

  /** Plans and sends the switches the rules want now (`reason` is logged). */
  run(client: HubClient, printer: PrinterAccess, reason: string): void {
    const { logger } = this.#options;
    const s = this.#options.settings();
    let snapshot: Pick<PrinterSnapshot, "temperatures"> & { state?: string } = {
      temperatures: {},
    };
    try {
      snapshot = printer.snapshot();
    } catch (err) {
      logger.warn(`Cannot read the printer, treating it as idle: ${String(err)}`);
    }
    const { switches, latches } = planSwitches({
      channels: s.channels,
      combine: s.combine_logic,
      hysteresis: s.temp_hysteresis,
      printerState: snapshot.state,
      temperatures: snapshot.temperatures,
      latches: this.#latches,
      current: this.#current(client),
    });
    this.#latches = latches;
    for (const { kind, id, on } of switches) {
      const key = channelKey(kind, id);
      const wait = this.#limiter.remaining(key);
      if (wait > 0) {
        logger.debug(`Deferring ${kind} ${id} by ${wait} ms (${reason})`);
        this.#limiter.defer(wait, this.#options.retry);
        continue;
      }
      const result = client.send(kind, id, on);
      if (!result.ok) {
        logger.warn(`Cannot switch ${kind} ${id}: ${result.detail}`);
        continue;
      }
      logger.info(`Switched ${kind} ${id} ${on ? "on" : "off"} (${reason})`);
      this.#limiter.record(key);
      this.noteSent(kind, id, on);
    }
  }

  #current(client: HubClient): ChannelStates {
    const current = client.states();
    for (const [key, on] of this.#intended) {
      const [kind, id] = key.split(":") as [ChannelKind, string];
      (current[kind] ??= {})[id] = on;
    }
    return current;
  }
}
