/**
 * Browser hook: follows `GET /api/benchmark/events` and hands every typed event to a callback
 * (EventSource reconnects by itself and resumes after the last event id).
 *
 * @module
 */
import { useEffect, useRef } from "preact/hooks";

/** A dashboard event (`type` plus its fields). */
export type LiveEvent = { type: string } & Record<string, unknown>;

/** Subscribes for the component's lifetime. */
export function useBenchEvents(onEvent: (e: LiveEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const source = new EventSource("/api/benchmark/events");
    source.onmessage = (m) => {
      try {
        handler.current(JSON.parse(m.data) as LiveEvent);
      } catch {
        // A malformed message is skipped; the next status event resynchronises.
      }
    };
    return () => source.close();
  }, []);
}
