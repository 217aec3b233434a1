/**
 * The one-off moments of the controller: the startup behaviour on the first connection of the
 * process (`leave`, `all_off`, `restore`), the failsafe on shutdown (`off`, `on`, `hold`; also
 * what the launcher applies while the host is down, `host_down.ts`) and the failsafe when the
 * hub is back after a loss longer than the grace period.
 * Send errors are logged and otherwise ignored.
 *
 * @module
 */
import type { Logger } from "../../lib/log.ts";
import type { ChannelConfig } from "./channel_config.ts";
import type { HubClient } from "./powerhub_client.ts";
import type { ChannelKind, ChannelStates } from "./layout.ts";
import type { PlannedSwitch } from "./rules.ts";
import type { BranchSettings } from "./settings.ts";

/**
 * Applies the startup behaviour: `all_off` switches every channel off (any mode), `restore`
 * sends each manual channel's remembered state, `leave` sends nothing. Returns what was sent so the engine can treat those states as current.
 */
export function runStartup(
  client: Pick<HubClient, "send">,
  settings: BranchSettings,
  logger: Logger,
): PlannedSwitch[] {
  const sent: PlannedSwitch[] = [];
  for (const config of settings.channels) {
    let on: boolean | undefined;
    if (settings.startup_behaviour === "all_off") on = false;
    else if (settings.startup_behaviour === "restore" && config.mode === "manual") {
      on = config.manual_on;
    }
    if (on === undefined) continue;
    const result = client.send(config.kind, config.id, on);
    if (result.ok) sent.push({ kind: config.kind, id: config.id, on });
    else logger.warn(`Startup: cannot switch ${config.kind} ${config.id}: ${result.detail}`);
  }
  if (sent.length > 0) logger.info(`Startup behaviour '${settings.startup_behaviour}' applied`);
  return sent;
}

/** What {@linkcode sendFailsafe} did. */
export interface FailsafeSent {
  sent: PlannedSwitch[];
  /** `hold` channels, left alone. */
  held: ChannelConfig[];
  /** Switches that could not be sent, each a sentence. */
  failed: string[];
}

/** Sends each channel's failsafe state (`hold` channels are left alone). */
export function sendFailsafe(
  client: Pick<HubClient, "send">,
  channels: readonly ChannelConfig[],
  logger: Logger,
): FailsafeSent {
  const out: FailsafeSent = { sent: [], held: [], failed: [] };
  for (const config of channels) {
    if (config.failsafe === "hold") {
      out.held.push(config);
      continue;
    }
    const on = config.failsafe === "on";
    const result = client.send(config.kind, config.id, on);
    if (result.ok) out.sent.push({ kind: config.kind, id: config.id, on });
    else {
      const failure = `cannot switch ${config.kind} ${config.id}: ${result.detail}`;
      logger.warn(`Failsafe: ${failure}`);
      out.failed.push(failure);
    }
  }
  return out;
}

/** What {@linkcode failsafeAfterLoss} tells the controller. */
export interface FailsafeEffects {
  /** A manual channel keeps its failsafe state as its remembered state. */
  remember(kind: ChannelKind, id: number, on: boolean): void;
  /** A switch was sent. */
  sent(kind: ChannelKind, id: number, on: boolean): void;
}

/** What {@linkcode failsafeAfterLoss} did. */
export interface FailsafeAfterLoss {
  /**
   * Every channel now in its failsafe state because of the loss: switched, or already in that
   * state on the hub (a hub that restarted comes back with its outputs off) and kept there.
   */
  applied: PlannedSwitch[];
  /** How many of `applied` needed a switch. */
  switched: number;
  /** Switches that could not be sent, each a sentence (those channels are not in `applied`). */
  failed: string[];
}

/**
 * The hub is back after a loss longer than the grace period: the channels nobody controlled
 * meanwhile (manual ones, whose remembered state is stale, and every channel while automation is
 * off) take their failsafe state, and manual ones remember it; `hold` channels stay, auto
 * channels follow their rules again. A channel the hub already reports in its failsafe state
 * counts as applied without a switch.
 */
export function failsafeAfterLoss(
  client: Pick<HubClient, "send">,
  settings: BranchSettings,
  states: ChannelStates,
  effects: FailsafeEffects,
): FailsafeAfterLoss {
  const out: FailsafeAfterLoss = { applied: [], switched: 0, failed: [] };
  for (const config of settings.channels) {
    if (config.failsafe === "hold") continue;
    if (config.mode === "auto" && settings.automation_enabled) continue;
    const { kind, id } = config;
    const on = config.failsafe === "on";
    if (config.mode === "manual" && config.manual_on !== on) effects.remember(kind, id, on);
    if ((states[kind]?.[String(id)] === 1) !== on) {
      const result = client.send(kind, id, on);
      if (!result.ok) {
        out.failed.push(`cannot switch ${kind} ${id}: ${result.detail}`);
        continue;
      }
      effects.sent(kind, id, on);
      out.switched++;
    }
    out.applied.push({ kind, id, on });
  }
  return out;
}
