/**
 * The rules engine at run time: reads the printer, plans the switches (pure, `rules.ts`), keeps
 * the temperature latches, rate-limits per channel with deferral, and remembers states it sent
 * until the hub has reported back every one of them (so a switch is not sent twice while its
 * broadcast is on the way, an older broadcast never hides a newer switch, and the startup
 * behaviour's switches count as done).
 *
 * Precedence of a user's switch and the rules, per channel (one synchronous step each, so they
 * never interleave): in manual mode the rules' target is the remembered state the command set,
 * so the last command wins; in auto mode the rules own the channel, a user's switch holds for
 * `min_switch_interval` and the rules are applied again when the hold ends (a deferred run), so
 * the channel ends at the rules' verdict whichever came first.
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
  /** The last state sent per channel and how many sent switches the hub has not reported yet. */
  #intended = new Map<string, { on: 0 | 1; unreported: number }>();

  constructor(options: RulesEngineOptions) {
    this.#options = options;
    this.#limiter = createSwitchLimiter({
      clock: options.clock,
      intervalMs: () => options.settings().min_switch_interval * 1000,
    });
  }

  /**
   * Treats `on` as the channel's state until the hub has reported that channel once for every
   * switch sent to it (the hub broadcasts each command it applies).
   */
  noteSent(kind: ChannelKind, id: number, on: boolean): void {
    const key = channelKey(kind, id);
    const unreported = (this.#intended.get(key)?.unreported ?? 0) + 1;
    this.#intended.set(key, { on: on ? 1 : 0, unreported });
  }

  /**
   * A user switched a channel: treated as sent; the engine leaves that channel alone for
   * `min_switch_interval` (a rule evaluation cannot undo the command at once) and runs the rules
   * again when that hold ends, so an auto channel ends at the rules' verdict.
   */
  noteUserSwitch(kind: ChannelKind, id: number, on: boolean): void {
    const key = channelKey(kind, id);
    this.noteSent(kind, id, on);
    this.#limiter.record(key);
    this.#limiter.defer(this.#limiter.remaining(key), this.#options.retry);
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

  /**
   * Counts a hub report for every channel a frame mentioned; a channel whose sent switches are
   * all reported is taken from the hub again.
   */
  noteReported(reported: ChannelStates): void {
    for (const [kind, ids] of Object.entries(reported)) {
      for (const id of Object.keys(ids ?? {})) {
        const key = `${kind}:${id}`;
        const sent = this.#intended.get(key);
        if (!sent) continue;
        if (sent.unreported <= 1) this.#intended.delete(key);
        else sent.unreported--;
      }
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
    for (const [key, { on }] of this.#intended) {
      const [kind, id] = key.split(":") as [ChannelKind, string];
      (current[kind] ??= {})[id] = on;
    }
    return current;
  }
}
