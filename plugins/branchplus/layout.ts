/**
 * The fixed channel layout of the power hub: five USB outputs and five 24 V outputs, in that
 * order. The type badge is never persisted; it is sent in the `layout` field of the state.
 *
 * @module
 */
import { UsageError } from "../../lib/error.ts";

/** The two channel kinds of the hub. */
export type ChannelKind = "usb" | "mx24v";

/** Every channel kind, in layout order. */
export const CHANNEL_KINDS: readonly ChannelKind[] = ["usb", "mx24v"];

/** One output of the hub. */
export interface ChannelSlot {
  kind: ChannelKind;
  id: number;
  /** Badge text, e.g. `Type-C 5A`. */
  type: string;
}

/** Channel states as the API reports them: kind → channel id (string) → 0 or 1. */
export type ChannelStates = Partial<Record<ChannelKind, Record<string, 0 | 1>>>;

/** The ten channels: usb 1..5 then mx24v 1..5. */
export const LAYOUT: readonly ChannelSlot[] = Object.freeze([
  { kind: "usb", id: 1, type: "Type-C 5A" },
  { kind: "usb", id: 2, type: "Type-C 1.5A" },
  { kind: "usb", id: 3, type: "Type-C 1.5A" },
  { kind: "usb", id: 4, type: "Type-C 1.5A" },
  { kind: "usb", id: 5, type: "Type-C 1.5A" },
  { kind: "mx24v", id: 1, type: "MX3.0 24V" },
  { kind: "mx24v", id: 2, type: "MX3.0 24V" },
  { kind: "mx24v", id: 3, type: "MX3.0 24V" },
  { kind: "mx24v", id: 4, type: "MX3.0 24V" },
  { kind: "mx24v", id: 5, type: "MX3.0 24V" },
]);

/** Whether a value names a channel kind. */
export function isChannelKind(value: unknown): value is ChannelKind {
  return value === "usb" || value === "mx24v";
}

/** A stable key for a channel, e.g. `usb:1`. */
export function channelKey(kind: ChannelKind, id: number): string {
  return `${kind}:${id}`;
}

/** The default label of a channel: `USB n` or `MX n`. */
export function defaultLabel(kind: ChannelKind, id: number): string {
  return kind === "usb" ? `USB ${id}` : `MX ${id}`;
}

/** The layout slot of a channel, or `undefined` when the hub has no such channel. */
export function findSlot(kind: unknown, id: unknown): ChannelSlot | undefined {
  return LAYOUT.find((slot) => slot.kind === kind && slot.id === id);
}

/**
 * Parses `kind` and `id` of a request body into a layout slot.
 *
 * @throws {UsageError} "unknown channel" when the pair is not in the layout.
 */
export function requireSlot(kind: unknown, id: unknown): ChannelSlot {
  const numericId = typeof id === "string" && /^\d+$/.test(id.trim()) ? Number(id) : id;
  const slot = findSlot(kind, numericId);
  if (!slot) {
    throw new UsageError(
      `Unknown channel '${String(kind)} ${String(id)}': the hub has usb 1-5 and mx24v 1-5`,
      { code: "unknown_channel" },
    );
  }
  return slot;
}
