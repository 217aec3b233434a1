/**
 * The branch controller: owns the hub client, runs the rules engine on its triggers, pushes
 * `connection` and `state` messages, applies the startup behaviour on the first connection and
 * the failsafe on shutdown. One controller per plugin context.
 *
 * @module
 */
import type { PluginContext } from "../../lib/host/plugin.ts";
import type { ChannelConfig } from "./channel_config.ts";
import {
  createHubClient,
  type HubClient,
  type SendResult,
  type StatesUpdate,
} from "./hub_client.ts";
import { type ChannelKind, type ChannelSlot, type ChannelStates, LAYOUT } from "./layout.ts";
import { probeHub, type ProbeResult } from "./probe.ts";
import { RulesEngine } from "./engine.ts";
import {
  type BranchSettings,
  channelConfigOf,
  hubUrl,
  replaceChannel,
  validateBranchSettings,
} from "./settings.ts";
import { runStartup, sendFailsafe } from "./lifecycle.ts";

/** The state `GET /api/plugin/branchplus` returns. */
export interface BranchStatus {
  connected: boolean;
  channels: ChannelStates;
  layout: ChannelSlot[];
  /** The channel configurations and the panel's options. */
  config: { confirm_high_power: boolean; automation_enabled: boolean; channels: ChannelConfig[] };
}

/** Result of `test_connection`. */
export type TestConnectionResult = ProbeResult | { ok: false; reason: "no_host"; detail: string };

/** Options of {@linkcode BranchController}. */
export interface BranchControllerOptions {
  /** Opens the hub socket (tests wrap it). @default `new WebSocket(url)` */
  createSocket?(url: string): WebSocket;
}

/** The controller of one plugin context. */
export class BranchController {
  readonly #ctx: PluginContext;
  readonly #options: BranchControllerOptions;
  readonly #engine: RulesEngine;
  #client: HubClient | undefined;
  #startupDone = false;
  #started = false;
  #stopping = false;
  #unsubscribe: (() => void)[] = [];
  #restarts: Promise<void> = Promise.resolve();
  #writes: Promise<unknown> = Promise.resolve();

  constructor(ctx: PluginContext, options: BranchControllerOptions = {}) {
    this.#ctx = ctx;
    this.#options = options;
    this.#engine = new RulesEngine({
      clock: ctx.clock,
      logger: ctx.logger,
      settings: () => this.settings(),
      retry: () => this.apply("deferred switch"),
    });
  }

  /** The current typed settings. */
  settings(): BranchSettings {
    return validateBranchSettings(this.#ctx.settings.get());
  }

  /** Subscribes to the printer and the settings and starts the hub client; idempotent. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
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

  /** Applies the failsafe (if connected), closes the client and drops every subscription. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    await this.#restarts;
    await this.#writes.catch(() => {});
    this.#engine.reset();
    const client = this.#client;
    this.#client = undefined;
    if (client?.connected) sendFailsafe(client, this.settings().channels, this.#ctx.logger);
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

  /** Switches a channel by hand; in manual mode the new state is remembered as `manual_on`. */
  async setChannel(kind: ChannelKind, id: number, on: boolean): Promise<SendResult> {
    const client = this.#client;
    if (!client) {
      const { host, port, path } = this.settings();
      const detail = host
        ? `The hub at ${hubUrl(host, port, path)} is not connected`
        : "No hub host is configured";
      return { ok: false, reason: "not_connected", detail };
    }
    const result = client.send(kind, id, on);
    if (!result.ok) return result;
    this.#engine.noteSent(kind, id, on);
    if (channelConfigOf(this.settings(), kind, id).mode === "manual") {
      await this.updateChannel(kind, id, (c) => ({ ...c, manual_on: on }));
    }
    return result;
  }

  /** Changes one channel's stored configuration (serialised), then re-applies the rules. */
  updateChannel(
    kind: ChannelKind,
    id: number,
    change: (config: ChannelConfig) => ChannelConfig,
  ): Promise<ChannelConfig> {
    const write = this.#writes.catch(() => {}).then(async () => {
      const next = change(channelConfigOf(this.settings(), kind, id));
      await this.#ctx.settings.update({ channels: replaceChannel(this.settings().channels, next) });
      this.apply("channel config");
      return channelConfigOf(this.settings(), kind, id);
    });
    this.#writes = write;
    return write;
  }

  /** One-shot connection test; missing fields fall back to the stored settings. */
  async testConnection(
    target: { host?: string; port?: number; path?: string },
  ): Promise<TestConnectionResult> {
    const s = this.settings();
    const host = (target.host ?? s.host).trim();
    if (!host) {
      return { ok: false, reason: "no_host", detail: "No hub host is given or configured" };
    }
    return await probeHub(hubUrl(host, target.port ?? s.port, target.path ?? s.path), {
      clock: this.#ctx.clock,
    });
  }

  /** Runs the rules engine once (does nothing while disconnected or with automation off). */
  apply(reason: string): void {
    const client = this.#client;
    if (this.#stopping || !client?.connected || !client.synced) return;
    if (!this.settings().automation_enabled) return;
    this.#engine.run(client, this.#ctx.printer, reason);
  }

  #onSettings(nextRaw: Record<string, unknown>, previousRaw: Record<string, unknown>): void {
    if (this.#stopping) return;
    const next = validateBranchSettings(nextRaw);
    const previous = validateBranchSettings(previousRaw);
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
        clock: this.#ctx.clock,
        logger: this.#ctx.logger.child("hub"),
        reconnectMinMs: s.reconnect_min * 1000,
        reconnectMaxMs: s.reconnect_max * 1000,
        createSocket: this.#options.createSocket,
        onConnection: (connected) => {
          if (this.#client !== client || this.#stopping) return;
          if (!connected) this.#engine.forgetSent();
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
      const sent = runStartup(client, this.settings(), this.#ctx.logger);
      for (const { kind, id, on } of sent) this.#engine.noteSent(kind, id, on);
    }
    this.apply("connected");
  }

  #pushConnection(connected: boolean): void {
    this.#ctx.push({ type: "connection", connected });
  }
}
