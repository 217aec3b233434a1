/**
 * The rules engine as pure functions: printer state → matrix state, one channel's target, and a
 * plan for all channels (targets to switch plus the updated temperature latches). I/O, rate
 * limiting and sending live in `controller.ts`.
 *
 * @module
 */
import type { HeaterReading } from "../../lib/host/mod.ts";
import type { ChannelConfig, RuleState } from "./channel_config.ts";
import { channelKey, type ChannelKind, type ChannelStates } from "./layout.ts";
import type { CombineLogic } from "./settings.ts";
import { nextLatch, sensorReading, tempOpinion } from "./temp_rule.ts";

const STATE_MAP: Readonly<Record<string, RuleState>> = {
  TRANSFERRING_FILE: "prepare",
  STARTING: "prepare",
  PRINTING: "printing",
  RESUMING: "printing",
  FINISHING: "printing",
  PAUSED: "paused",
  PAUSING: "paused",
  ERROR: "error",
  CLOSED_WITH_ERROR: "error",
};

/**
 * The matrix state of a printer state; anything unknown (OPERATIONAL, OFFLINE...) is idle.
 * CANCELLING is idle too, not printing (the reference's mapping): a cancelled job is over, so a
 * cancel from a pause does not switch `printing: on` outputs back on.
 */
export function matrixStateOf(printerState: string | undefined): RuleState {
  return (printerState && STATE_MAP[printerState]) || "idle";
}

/**
 * The target of one channel: `true` on, `false` off, `undefined` leave alone.
 *
 * Manual mode returns the remembered state. In auto mode the matrix verdict (`ignore` = no
 * opinion) is combined with the temperature opinion: none → the matrix verdict; otherwise
 * `temp_override` takes the temperature opinion, `and` is on only when both say on, `or` is on
 * when either says on.
 */
export function resolveTarget(
  config: ChannelConfig,
  state: RuleState,
  tempActive: boolean,
  combine: CombineLogic,
): boolean | undefined {
  if (config.mode === "manual") return config.manual_on;
  const action = config.rules[state] ?? "off";
  const byState = action === "ignore" ? undefined : action === "on";
  const byTemp = tempOpinion(config.temp_rule, tempActive);
  if (byTemp === undefined) return byState;
  if (combine === "and") return byState === true && byTemp;
  if (combine === "or") return byState === true || byTemp;
  return byTemp;
}

/** Inputs of {@linkcode planSwitches}. */
export interface PlanInput {
  channels: readonly ChannelConfig[];
  combine: CombineLogic;
  hysteresis: number;
  printerState: string | undefined;
  temperatures: Readonly<Record<string, HeaterReading>>;
  /** Temperature latches by channel key (`usb:1`); missing means inactive. */
  latches: ReadonlyMap<string, boolean>;
  /** The states the channels are (or are about to be) in. */
  current: ChannelStates;
}

/** One switch the engine wants. */
export interface PlannedSwitch {
  kind: ChannelKind;
  id: number;
  on: boolean;
}

/** Computes the switches needed now and the new temperature latches. */
export function planSwitches(
  input: PlanInput,
): { switches: PlannedSwitch[]; latches: Map<string, boolean> } {
  const state = matrixStateOf(input.printerState);
  const latches = new Map(input.latches);
  const switches: PlannedSwitch[] = [];
  for (const config of input.channels) {
    const key = channelKey(config.kind, config.id);
    let active = latches.get(key) ?? false;
    if (config.temp_rule.enabled && config.mode === "auto") {
      const reading = sensorReading(config.temp_rule.sensor, input.temperatures);
      active = nextLatch(config.temp_rule.threshold, input.hysteresis, reading, active);
      latches.set(key, active);
    }
    const target = resolveTarget(config, state, active, input.combine);
    if (target === undefined) continue;
    const live = input.current[config.kind]?.[String(config.id)];
    if (live === (target ? 1 : 0)) continue;
    switches.push({ kind: config.kind, id: config.id, on: target });
  }
  return { switches, latches };
}
