/**
 * Browser-safe state of the panel (no Deno APIs): starts from `GET /api/plugin/<id>`,
 * follows the `connection` and `state` push messages, and answers the panel's questions (chip
 * colour, whether switching needs a confirmation). The panel island is still to be written; it
 * will render one card per channel from this state.
 *
 * @module
 */
import type { ChannelKind, ChannelSlot, ChannelStates } from "./layout.ts";
import { isPlainObject } from "../../lib/shared/json_object.ts";

/** What the panel shows. */
export interface PanelState {
  connected: boolean;
  channels: ChannelStates;
  layout: ChannelSlot[];
  /** Ask before switching a 24 V channel on. */
  confirmHighPower: boolean;
}

/** The chip colour of a channel: red border on, green off, yellow unknown. */
export type ChipState = "on" | "off" | "unknown";

/** The panel state from a GET response body. */
export function panelStateFrom(status: {
  connected: boolean;
  channels: ChannelStates;
  layout: ChannelSlot[];
  config?: { confirm_high_power?: boolean };
}): PanelState {
  return {
    connected: status.connected,
    channels: structuredClone(status.channels),
    layout: status.layout,
    confirmHighPower: status.config?.confirm_high_power ?? true,
  };
}

/**
 * Applies one push message's `data` of the branchplus plugin. A `state` message merges its
 * channels (it may hold only the changed ones) and counts as connected; a `connection` false
 * forgets the channel states.
 */
export function applyPush(state: PanelState, data: Record<string, unknown>): PanelState {
  if (data.type === "connection" && typeof data.connected === "boolean") {
    return { ...state, connected: data.connected, channels: data.connected ? state.channels : {} };
  }
  if (data.type === "state" && isPlainObject(data.channels)) {
    const channels = structuredClone(state.channels);
    for (const [kind, ids] of Object.entries(data.channels)) {
      if ((kind !== "usb" && kind !== "mx24v") || !isPlainObject(ids)) continue;
      const target = channels[kind] ??= {};
      for (const [id, on] of Object.entries(ids)) target[id] = on ? 1 : 0;
    }
    return { ...state, connected: true, channels };
  }
  return state;
}

/** The chip state of one channel. */
export function chipState(state: PanelState, kind: ChannelKind, id: number): ChipState {
  const on = state.channels[kind]?.[String(id)];
  return on === undefined ? "unknown" : on === 1 ? "on" : "off";
}

/** Whether switching a channel to `on` needs the user's confirmation first. */
export function needsConfirmation(state: PanelState, kind: ChannelKind, on: boolean): boolean {
  return state.confirmHighPower && on && kind === "mx24v";
}
