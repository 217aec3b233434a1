/**
 * The branch controller: owns the hub client, runs the rules engine on its triggers, pushes
 * `connection` and `state` messages, applies the startup behaviour on the first connection and
 * the failsafe on shutdown. One controller per plugin context.
 *
 * @module
 */
import { mayConnect, type PluginContext } from "../../lib/host/mod.ts";
import type { ChannelConfig } from "./channel_config.ts";
import {
  createHubClient,
  type HubClient,
  type SendResult,
  type StatesUpdate,
} from "./powerhub_client.ts";
import {
  channelKey,
  type ChannelKind,
  type ChannelSlot,
  type ChannelStates,
  LAYOUT,
} from "./layout.ts";
import { HubLossWatch } from "./powerhub_loss.ts";
import { probeHub, type ProbeResult } from "./probe.ts";
import { RulesEngine } from "./rules_engine.ts";
import { type BranchSettings, channelConfigOf, hubNetTarget, hubUrl } from "./settings.ts";
import { failsafeAfterLoss, runStartup, sendFailsafe } from "./lifecycle.ts";

/** The state `GET /api/plugin/<id>` returns. */
export interface BranchStatus {
  connected: boolean;
  channels: ChannelStates;
  layout: ChannelSlot[];
  /** The channel configurations and the panel's options. */
  config: { confirm_high_power: boolean; automation_enabled: boolean; channels: ChannelConfig[] };
}

/** Result of `set_channel`. */
export type SetChannelResult = SendResult | {
  ok: false;
  reason: "confirm_required";
  detail: string;
};

/** Result of `test_connection`. */
export type TestConnectionResult = ProbeResult | { ok: false; reason: "no_host"; detail: string };

/** Options of {@linkcode BranchController}. */
export interface BranchControllerOptions {
  /** Opens the hub socket (tests wrap it). @default `new WebSocket(url)` */
  createSocket?(url: string): WebSocket;
}

/** How the controller starts. */
export interface StartOptions {
  /**
   * The host restarted itself (a planned restart): the outputs stay as the hub reports them,
   * the startup behaviour is not applied and the temperature latches are taken from the hub.
   */
  resumed?: boolean;
}

/** How the controller stops. */
export interface StopOptions {
  /** A planned restart of the host: no failsafe, the outputs stay as they are. */
  planned?: boolean;
}

/** The controller of one plugin context. */
export class BranchController {
  readonly #ctx: PluginContext<BranchSettings>;
  readonly #options: BranchControllerOptions;
  readonly #engine: RulesEngine;
  #client: HubClient | undefined;
  #startupDone = false;
  #started = false;
  #stopping = false;
  #unsubscribe: (() => void)[] = [];
  #resumed = false;
  #restarts: Promise<void> = Promise.resolve();
  #writes: Promise<unknown> = Promise.resolve();
  /** Channel configurations a command changed whose save is still under way. */
  #unsaved = new Map<string, ChannelConfig>();
  #loss: HubLossWatch;

  constructor(ctx: PluginContext<BranchSettings>, options: BranchControllerOptions = {}) {
    this.#ctx = ctx;
    this.#options = options;
    this.#engine = new RulesEngine({
      clock: ctx.clock,
      logger: ctx.logger,
      settings: () => this.settings(),
      retry: () => this.apply("deferred switch"),
    });
    this.#loss = new HubLossWatch({
      clock: ctx.clock,
      logger: ctx.logger,
      graceMs: () => this.settings().failsafe_grace * 1000,
      push: (data) => ctx.push(data),
    });
  }

  /**
   * The current typed settings, with the channel changes of commands whose save is still under
   * way: a command takes effect at once, so no rule evaluation can act on the older value.
   */
  settings(): BranchSettings {
    const s = this.#ctx.settings.get();
    if (this.#unsaved.size === 0) return s;
    return {
      ...s,
      channels: s.channels.map((c) => this.#unsaved.get(channelKey(c.kind, c.id)) ?? c),
    };
  }

  /** Subscribes to the printer and the settings and starts the hub client; idempotent. */
  start(options: StartOptions = {}): void {
    if (this.#started) return;
    this.#started = true;
    this.#resumed = options.resumed ?? false;
    this.#unsubscribe.push(
      this.#ctx.printer.subscribe((event) => {
        if (event.type === "state") this.apply("printer state");
        else if (this.settings().channels.some((c) => c.mode === "auto" && c.temp_rule.enabled)) {
          this.apply("temperatures");
        }
      }),
      this.#ctx.settings.onChange((next, previous) => this.#onSettings(next, previous)),
    );
    this.#restartClient(this.settings());
  }

  /**
   * Applies the failsafe (if connected; not on a planned restart), closes the client and drops
   * every subscription.
   */
  async stop(options: StopOptions = {}): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#loss.stop();
    await this.#restarts;
    await this.#writes.catch(() => {});
    this.#engine.reset();
    const client = this.#client;
    this.#client = undefined;
    if (client?.connected && !options.planned) {
      sendFailsafe(client, this.settings().channels, this.#ctx.logger);
    }
    if (options.planned) this.#ctx.logger.info("Planned restart: the outputs stay as they are");
    await client?.stop();
  }

  /** The branch controller state. */
  status(): BranchStatus {
    const s = this.settings();
    return {
      connected: this.#client?.connected ?? false,
      channels: this.#client?.states() ?? {},
      layout: LAYOUT.map((slot) => ({ ...slot })),
      config: {
        confirm_high_power: s.confirm_high_power,
        automation_enabled: s.automation_enabled,
        channels: s.channels,
      },
    };
  }

  /**
   * Switches a channel by hand; in manual mode the new state is remembered as `manual_on`. The
   * command takes effect before anything else runs: its remembered state is in force before the
   * command is sent (one synchronous step, no rule evaluation in between), and the engine leaves
   * the channel alone for `min_switch_interval`, then applies the rules again: a manual channel
   * stays as commanded, an auto channel ends at its rules' verdict (see `rules_engine.ts`).
   * Switching a 24 V output on needs `confirmed` while `confirm_high_power` is set.
   */
  async setChannel(
    kind: ChannelKind,
    id: number,
    on: boolean,
    confirmed = false,
  ): Promise<SetChannelResult> {
    const client = this.#client;
    const s = this.settings();
    if (!client) {
      const detail = s.host
        ? `The hub at ${hubUrl(s.host, s.port, s.path)} is not connected`
        : "No hub host is configured";
      return { ok: false, reason: "not_connected", detail };
    }
    if (on && kind === "mx24v" && s.confirm_high_power && !confirmed) {
      return {
        ok: false,
        reason: "confirm_required",
        detail:
          `Switching the 24 V output ${id} on needs "confirm": true (confirm_high_power is set)`,
      };
    }
    const config = channelConfigOf(s, kind, id);
    const remember = config.mode === "manual" && config.manual_on !== on;
    // In force before the send (no evaluation can act on the old state); the command itself is
    // the switch, so the rules are not run for it.
    const saved = remember
      ? this.#change(kind, id, (c) => ({ ...c, manual_on: on }), false)
      : undefined;
    const result = client.send(kind, id, on);
    if (!result.ok) {
      if (remember) {
        this.#change(kind, id, (c) => ({ ...c, manual_on: config.manual_on }), false);
      }
      return result;
    }
    this.#engine.noteUserSwitch(kind, id, on);
    await saved;
    return result;
  }

  /** Changes one channel's stored configuration (in force at once, saved in order), then re-applies the rules. */
  async updateChannel(
    kind: ChannelKind,
    id: number,
    change: (config: ChannelConfig) => ChannelConfig,
  ): Promise<ChannelConfig> {
    await this.#change(kind, id, change);
    return channelConfigOf(this.settings(), kind, id);
  }

  #change(
    kind: ChannelKind,
    id: number,
    change: (config: ChannelConfig) => ChannelConfig,
    applyRules = true,
  ): Promise<void> {
    const key = channelKey(kind, id);
    const next = change(channelConfigOf(this.settings(), kind, id));
    this.#unsaved.set(key, next);
    if (applyRules) this.apply("channel config");
    const write = this.#writes.catch(() => {}).then(async () => {
      try {
        await this.#ctx.settings.update({ channels: [next] });
      } finally {
        if (this.#unsaved.get(key) === next) this.#unsaved.delete(key);
      }
    });
    this.#writes = write;
    return write.catch((err) => {
      this.apply("channel config not saved");
      throw err;
    });
  }

  /**
   * One-shot connection test; missing fields fall back to the stored settings. An address this
   * host may not reach yet (it is not in the saved settings) is checked by the launcher in a
   * process allowed to reach that address only.
   */
  async testConnection(
    target: { host?: string; port?: number; path?: string },
  ): Promise<TestConnectionResult> {
    const s = this.settings();
    const host = (target.host ?? s.host).trim();
    if (!host) {
      return { ok: false, reason: "no_host", detail: "No hub host is given or configured" };
    }
    const hub = { host, port: target.port ?? s.port, path: target.path ?? s.path };
    const net = hubNetTarget(hub.host, hub.port);
    if (!mayConnect(net) && this.#ctx.probeOutside) {
      return await this.#ctx.probeOutside("hub", { ...hub }, [net]) as TestConnectionResult;
    }
    return await probeHub(hub, { clock: this.#ctx.clock });
  }

  /** Runs the rules engine once (does nothing while disconnected or with automation off). */
  apply(reason: string): void {
    const client = this.#client;
    if (this.#stopping || !client?.connected || !client.synced) return;
    if (!this.settings().automation_enabled) return;
    this.#engine.run(client, this.#ctx.printer, reason);
  }

  #onSettings(next: BranchSettings, previous: BranchSettings): void {
    if (this.#stopping) return;
    if (next.host !== previous.host || next.port !== previous.port || next.path !== previous.path) {
      this.#restartClient(next);
      return;
    }
    this.#client?.setBackoff(next.reconnect_min * 1000, next.reconnect_max * 1000);
    this.apply("settings");
  }

  #restartClient(s: BranchSettings): void {
    this.#restarts = this.#restarts.then(async () => {
      const old = this.#client;
      this.#client = undefined;
      const wasConnected = old?.connected ?? false;
      await old?.stop();
      this.#engine.forgetSent();
      if (this.#stopping) return;
      if (wasConnected) this.#pushConnection(false);
      if (!s.host) {
        this.#pushConnection(false);
        return;
      }
      const client: HubClient = createHubClient({
        url: hubUrl(s.host, s.port, s.path),
        target: hubNetTarget(s.host, s.port),
        clock: this.#ctx.clock,
        logger: this.#ctx.logger.child("hub"),
        reconnectMinMs: s.reconnect_min * 1000,
        reconnectMaxMs: s.reconnect_max * 1000,
        createSocket: this.#options.createSocket,
        onConnection: (connected) => {
          if (this.#client !== client || this.#stopping) return;
          if (!connected) this.#engine.forgetSent();
          if (connected) this.#loss.found();
          else this.#loss.lost();
          this.#pushConnection(connected);
        },
        onStates: (update) => {
          if (this.#client === client && !this.#stopping) this.#onStates(client, update);
        },
      });
      this.#client = client;
    });
  }

  #onStates(client: HubClient, update: StatesUpdate): void {
    this.#engine.noteReported(update.reported);
    if (Object.keys(update.changed).length > 0) {
      this.#ctx.push({ type: "state", channels: update.changed });
    }
    if (!update.initial) return;
    if (!this.#startupDone) {
      this.#startupDone = true;
      if (this.#resumed) {
        this.#engine.resumeLatches(update.states, this.#ctx.printer);
        this.#ctx.logger.info("Resumed after a planned restart: outputs kept as the hub reports");
      } else {
        const sent = runStartup(client, this.settings(), this.#ctx.logger);
        for (const { kind, id, on } of sent) this.#engine.noteSent(kind, id, on);
      }
    }
    if (this.#loss.takeFailsafeDue()) this.#failsafeAfterLoss(client, update.states);
    this.apply("connected");
  }

  #failsafeAfterLoss(client: HubClient, states: ChannelStates): void {
    const { logger } = this.#ctx;
    const done = failsafeAfterLoss(client, this.settings(), states, {
      // Remembered without running the rules: the failsafe sends the switch itself.
      remember: (kind, id, on) =>
        this.#change(kind, id, (c) => ({ ...c, manual_on: on }), false).catch((err) =>
          logger.error(`Cannot save the failsafe of ${kind} ${id}: ${err}`)
        ),
      sent: (kind, id, on) => this.#engine.noteSent(kind, id, on),
    });
    for (const failure of done.failed) logger.warn(`Failsafe after the hub loss: ${failure}`);
    logger.warn(
      `Hub back after a long loss: failsafe applied to ${done.applied.length} channel(s) ` +
        `(${done.switched} switched, ${done.applied.length - done.switched} already in that state)`,
    );
    this.#ctx.push({ type: "failsafe", reason: "hub_lost", applied: done.applied });
  }

  #pushConnection(connected: boolean): void {
    this.#ctx.push({ type: "connection", connected });
  }
}
