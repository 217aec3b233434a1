/**
 * The power panel's state as signals and its commands: the hub's channel states (from the
 * status route, then the push socket's `state` and `connection` messages), the channel
 * configurations, per-card errors and "waiting for the hub" marks, and the pending 24 V
 * confirmation. Browser code.
 *
 * @module
 */
import { batch, computed, type ReadonlySignal, type Signal, signal } from "@preact/signals";
import { followPush, pushConnected } from "../../../lib/shared/push.ts";
import type { ChannelConfig } from "../channel_config.ts";
import { PLUGIN_ID } from "../id.ts";
import type { ChannelKind } from "../layout.ts";
import {
  API_BASE,
  type CardView,
  cardViews,
  failureText,
  patchConfig,
  type PowerStatus,
  replaceConfig,
  sendCommand,
} from "../panel_client.ts";
import { applyPush, needsConfirmation, type PanelState, panelStateFrom } from "../panel_state.ts";

/** A 24 V switch-on waiting for the user's confirmation. */
export interface Pending {
  kind: ChannelKind;
  id: number;
}

/** The panel's state and commands. */
export interface PowerState {
  panel: Signal<PanelState | null>;
  configs: Signal<ChannelConfig[]>;
  /** Why the hub is disconnected ("" when unknown). */
  detail: Signal<string>;
  /** A load failure ("" when none). */
  error: Signal<string>;
  /** Per card key, the last command's failure. */
  errors: Signal<Record<string, string>>;
  /** Per card key, the state a switch waits for the hub to report. */
  waiting: Signal<Record<string, 0 | 1>>;
  confirm: Signal<Pending | null>;
  cards: ReadonlySignal<CardView[]>;
  requestSwitch(card: CardView, on: boolean): void;
  switchTo(card: CardView, on: boolean, confirmed?: boolean): Promise<void>;
  setMode(card: CardView, mode: "auto" | "manual"): Promise<void>;
  setLabel(card: CardView, label: string): Promise<void>;
  setConfig(card: CardView, change: Record<string, unknown>): Promise<void>;
  /** Loads the status (again on every reconnection) and follows the pushes. */
  follow(): () => void;
}

const without = <T>(map: Record<string, T>, key: string): Record<string, T> => {
  const { [key]: _gone, ...rest } = map;
  return rest;
};

/** Creates the panel's state; commands carry the session's CSRF token. */
export function createPowerState(csrfToken: string): PowerState {
  const s: PowerState = {
    panel: signal(null),
    configs: signal([]),
    detail: signal(""),
    error: signal(""),
    errors: signal({}),
    waiting: signal({}),
    confirm: signal(null),
    cards: computed(() => s.panel.value ? cardViews(s.panel.value, s.configs.value) : []),
    requestSwitch(card, on) {
      const panel = s.panel.value;
      if (panel && needsConfirmation(panel, card.kind, on)) {
        s.confirm.value = { kind: card.kind, id: card.id };
      } else s.switchTo(card, on);
    },
    async switchTo(card, on, confirmed = false) {
      s.waiting.value = { ...s.waiting.value, [card.key]: on ? 1 : 0 };
      const answer = await run(card, {
        command: "set_channel",
        on,
        ...(confirmed ? { confirm: true } : {}),
      });
      if (!answer.ok) s.waiting.value = without(s.waiting.value, card.key);
    },
    async setMode(card, mode) {
      // Optimistic: the switch moves at once and moves back when the command fails.
      s.configs.value = patchConfig(s.configs.value, card.kind, card.id, { mode });
      const answer = await run(card, { command: "set_mode", mode });
      if (!answer.ok) {
        s.configs.value = patchConfig(s.configs.value, card.kind, card.id, { mode: card.mode });
      }
    },
    async setLabel(card, label) {
      if (label === card.label) return;
      const answer = await run(card, { command: "set_label", label });
      if (answer.ok) {
        s.configs.value = patchConfig(s.configs.value, card.kind, card.id, {
          label: String(answer.label),
        });
      }
    },
    async setConfig(card, change) {
      const answer = await run(card, { command: "set_channel_config", ...change });
      if (answer.ok && answer.config) {
        s.configs.value = replaceConfig(s.configs.value, answer.config as ChannelConfig);
      }
    },
    follow() {
      load();
      const unfollow = followPush(PLUGIN_ID, (data) => {
        if (s.panel.value) s.panel.value = applyPush(s.panel.value, data);
        if (data.type === "connection" && data.connected === true) s.detail.value = "";
        settle();
      });
      // Pushes sent before the socket (re)opened are missed: load the state at every open too.
      let wasOpen = pushConnected.peek();
      const unwatch = pushConnected.subscribe((open) => {
        if (open && !wasOpen) load();
        wasOpen = open;
      });
      return () => {
        unwatch();
        unfollow();
      };
    },
  };

  const run = async (card: CardView, body: Record<string, unknown>) => {
    s.errors.value = without(s.errors.value, card.key);
    const answer = await sendCommand(csrfToken, { ...body, kind: card.kind, id: card.id });
    if (!answer.ok) s.errors.value = { ...s.errors.value, [card.key]: failureText(answer) };
    return answer;
  };

  /** Forgets a "waiting for the hub" mark once the hub reports the wanted state. */
  const settle = () => {
    const panel = s.panel.value;
    if (!panel) return;
    const left = Object.fromEntries(
      Object.entries(s.waiting.value).filter(([key, want]) => {
        const [kind, id] = key.split(":");
        return panel.channels[kind as ChannelKind]?.[id!] !== want;
      }),
    );
    if (Object.keys(left).length !== Object.keys(s.waiting.value).length) s.waiting.value = left;
  };

  const load = async () => {
    try {
      const res = await fetch(API_BASE, { credentials: "same-origin" });
      const body = await res.json() as PowerStatus & { error?: string };
      if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
      batch(() => {
        s.panel.value = panelStateFrom(body);
        s.configs.value = body.config?.channels ?? [];
        s.detail.value = body.detail ?? "";
        s.error.value = "";
      });
      settle();
    } catch (err) {
      s.error.value = `Cannot load the power state: ${(err as Error).message}`;
    }
  };
  return s;
}
