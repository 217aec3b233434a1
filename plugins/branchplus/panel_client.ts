/**
 * Browser-side helpers of the power panel (no Deno APIs): the command call with the session's
 * CSRF token, the failure texts, and the per-card view built from the panel state and the channel
 * configurations of `GET /api/plugin/<id>`.
 *
 * @module
 */
import type { ChannelConfig, RuleAction, TempRule } from "./channel_config.ts";
import type { ChannelKind, ChannelSlot } from "./layout.ts";
import { PLUGIN_ID } from "./id.ts";
import { type ChipState, chipState, type PanelState } from "./panel_state.ts";

/** The plugin's API path (`/api/plugin/<id>`). */
export const API_BASE = `/api/plugin/${PLUGIN_ID}`;

/** Printer states of the rule matrix, in display order. */
export const MATRIX_STATES = ["idle", "prepare", "printing", "paused", "error"] as const;

/** Choices of a matrix cell. */
export const RULE_ACTIONS: readonly RuleAction[] = ["on", "off", "ignore"];

/** The body of `GET /api/plugin/<id>`. */
export interface PowerStatus {
  connected: boolean;
  channels: PanelState["channels"];
  layout: ChannelSlot[];
  config?: {
    confirm_high_power?: boolean;
    automation_enabled?: boolean;
    channels?: ChannelConfig[];
  };
  detail?: string;
}

/** A command's JSON answer. */
export interface CommandAnswer {
  ok: boolean;
  reason?: string;
  detail?: string;
  [key: string]: unknown;
}

/** Texts for the failure reasons of the commands. */
export const REASON_TEXT: Record<string, string> = {
  not_connected: "The hub is not connected",
  send_failed: "Sending to the hub failed",
  no_host: "No hub host is configured",
  timeout: "The hub did not answer in time",
  unreachable: "The hub cannot be reached",
  rate_limited: "Too many switch commands: wait a few seconds",
};

/** The text shown for a failed command: `detail`, else the reason's text, else the reason. */
export function failureText(answer: CommandAnswer): string {
  if (answer.detail) return answer.detail;
  const reason = answer.reason ?? "unknown";
  return REASON_TEXT[reason] ?? `Command failed (${reason})`;
}

/** Everything one channel card shows. */
export interface CardView {
  kind: ChannelKind;
  id: number;
  key: string;
  type: string;
  label: string;
  mode: "auto" | "manual";
  chip: ChipState;
  rules: Record<(typeof MATRIX_STATES)[number], RuleAction>;
  tempRule: TempRule;
  failsafe: "off" | "on" | "hold";
}

/** The cards in layout order, merging live states with the stored configurations. */
export function cardViews(state: PanelState, configs: readonly ChannelConfig[]): CardView[] {
  return state.layout.map((slot) => {
    const config = configs.find((c) => c.kind === slot.kind && c.id === slot.id);
    return {
      kind: slot.kind,
      id: slot.id,
      key: `${slot.kind}:${slot.id}`,
      type: slot.type,
      label: config?.label ?? `${slot.kind === "usb" ? "USB" : "MX"} ${slot.id}`,
      mode: config?.mode ?? "auto",
      chip: chipState(state, slot.kind, slot.id),
      rules: {
        idle: config?.rules.idle ?? "off",
        prepare: config?.rules.prepare ?? "off",
        printing: config?.rules.printing ?? "off",
        paused: config?.rules.paused ?? "off",
        error: config?.rules.error ?? "off",
      },
      tempRule: config?.temp_rule ??
        { enabled: false, sensor: "bed", threshold: 40, above: "on" },
      failsafe: config?.failsafe ?? "off",
    };
  });
}

/** Replaces one channel's configuration (by kind and id) in a list; appends when missing. */
export function replaceConfig(
  configs: readonly ChannelConfig[],
  next: ChannelConfig,
): ChannelConfig[] {
  const found = configs.some((c) => c.kind === next.kind && c.id === next.id);
  return found
    ? configs.map((c) => c.kind === next.kind && c.id === next.id ? next : c)
    : [...configs, next];
}

/** Applies a partial change to one channel's configuration in a list. */
export function patchConfig(
  configs: readonly ChannelConfig[],
  kind: ChannelKind,
  id: number,
  patch: Partial<ChannelConfig>,
): ChannelConfig[] {
  return configs.map((c) => c.kind === kind && c.id === id ? { ...c, ...patch } : c);
}

/**
 * Posts one command with the session's CSRF token. A non-2xx answer becomes `{ok: false}` with
 * the server's `reason` and `detail` (the plugin's failure shape), or, from the host in front of
 * it (401, 403), its `error` text as `detail` and `http_<status>` as the reason.
 */
export async function sendCommand(
  csrfToken: string,
  body: Record<string, unknown>,
  fetcher: typeof fetch = fetch,
): Promise<CommandAnswer> {
  try {
    const res = await fetcher(API_BASE, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
      body: JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({})) as Record<string, unknown>;
    if (!res.ok) {
      const detail = typeof json.detail === "string"
        ? json.detail
        : typeof json.error === "string"
        ? json.error
        : `HTTP ${res.status}`;
      const reason = typeof json.reason === "string" ? json.reason : `http_${res.status}`;
      return { ok: false, reason, detail };
    }
    return { ...json, ok: json.ok === true } as CommandAnswer;
  } catch (err) {
    return { ok: false, reason: "network", detail: `Request failed: ${(err as Error).message}` };
  }
}
