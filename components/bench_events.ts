/**
 * The benchmark's live state, shared by every island of the page: one `EventSource` on
 * `GET /api/benchmark/events` (it reconnects by itself and resumes after the last event id)
 * folds every typed event into the `benchLive` signal. Browser code.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import { initialLive, type LiveState, reduceLive } from "./live_state.ts";

/** A dashboard event (`type` plus its fields). */
export type LiveEvent = { type: string } & Record<string, unknown>;

/** The live view's state (status, model, progress, output, runs, hardware). */
export const benchLive: Signal<LiveState> = signal(initialLive("idle"));

/** The events' URL. */
export const EVENTS_URL = "/api/benchmark/events";

let source: EventSource | null = null;
let followers = 0;

/** Applies one event's text (malformed ones are skipped: the next status resynchronises). */
export function applyEventText(text: string): void {
  try {
    benchLive.value = reduceLive(benchLive.value, JSON.parse(text) as LiveEvent);
  } catch {
    // skipped
  }
}

/**
 * Follows the events until the returned function is called (the first follower opens the
 * stream, the last one closes it); `status` seeds the state before the first event.
 */
export function followBenchEvents(status: string): () => void {
  if (followers++ === 0) {
    benchLive.value = initialLive(status);
    source = new EventSource(EVENTS_URL);
    source.onmessage = (m) => applyEventText(m.data);
  }
  return () => {
    if (--followers > 0) return;
    source?.close();
    source = null;
  };
}
