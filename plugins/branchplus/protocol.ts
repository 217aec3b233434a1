/**
 * The hub's JSON WebSocket protocol, as pure functions. On connect the hub sends a snapshot whose
 * channel lists are nested under `control` (`{"control": {"usb": [{id, on}], "mx24v": [...]}}`);
 * later frames may carry `usb`/`mx24v` at the top level. A command is one object
 * `{"<kind>": {"id": N, "on": 0|1}}`; the hub never answers it directly — its broadcast of the
 * new state is the acknowledgement.
 *
 * @module
 */
import { CHANNEL_KINDS, type ChannelKind, type ChannelStates } from "./layout.ts";
import { isPlainObject } from "../../lib/shared/json_object.ts";

/** One channel state read from a frame. */
export interface ChannelReading {
  kind: ChannelKind;
  id: number;
  on: 0 | 1;
}

/** The JSON object `text` holds; undefined for anything else (not JSON, not an object). */
function jsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isPlainObject(value) ? value : undefined;
}

/**
 * Reads the channel states a frame carries. Returns `undefined` for text that is not JSON or a
 * frame without channel lists; entries without an integer `id` are skipped, a truthy `on` is 1.
 */
export function parseFrame(text: string): ChannelReading[] | undefined {
  const frame = jsonObject(text);
  if (frame === undefined) return undefined;
  const source = isPlainObject(frame.control) ? frame.control : frame;
  let found = false;
  const readings: ChannelReading[] = [];
  for (const kind of CHANNEL_KINDS) {
    const list = source[kind];
    if (!Array.isArray(list)) continue;
    found = true;
    for (const entry of list) {
      if (!isPlainObject(entry)) continue;
      const id = typeof entry.id === "string" ? Number(entry.id) : entry.id;
      if (typeof id !== "number" || !Number.isInteger(id)) continue;
      readings.push({ kind, id, on: entry.on ? 1 : 0 });
    }
  }
  return found ? readings : undefined;
}

/** The command frame that switches one channel. */
export function encodeCommand(kind: ChannelKind, id: number, on: boolean): string {
  return JSON.stringify({ [kind]: { id, on: on ? 1 : 0 } });
}

/**
 * Reads a command frame a client sent (the simulator's side of {@linkcode encodeCommand}).
 * Returns `undefined` for anything that is not exactly one well-formed command.
 */
export function parseCommand(text: string): ChannelReading | undefined {
  const frame = jsonObject(text);
  if (frame === undefined) return undefined;
  for (const kind of CHANNEL_KINDS) {
    const body = frame[kind];
    if (!isPlainObject(body)) continue;
    if (typeof body.id !== "number" || !Number.isInteger(body.id)) return undefined;
    return { kind, id: body.id, on: body.on ? 1 : 0 };
  }
  return undefined;
}

/**
 * Merges readings into a snapshot and returns the merged copy plus only the changed channels.
 */
export function mergeReadings(
  snapshot: ChannelStates,
  readings: readonly ChannelReading[],
): { merged: ChannelStates; changed: ChannelStates } {
  const merged: ChannelStates = {};
  for (const kind of CHANNEL_KINDS) {
    const states = snapshot[kind];
    if (states) merged[kind] = { ...states };
  }
  const changed: ChannelStates = {};
  for (const { kind, id, on } of readings) {
    const states = merged[kind] ??= {};
    if (states[String(id)] === on) continue;
    states[String(id)] = on;
    (changed[kind] ??= {})[String(id)] = on;
  }
  return { merged, changed };
}

/** Number of channels in a snapshot. */
export function countChannels(states: ChannelStates): number {
  return CHANNEL_KINDS.reduce((sum, kind) => sum + Object.keys(states[kind] ?? {}).length, 0);
}

/** Whether a states object holds no channel. */
export function isEmptyStates(states: ChannelStates): boolean {
  return countChannels(states) === 0;
}
