/**
 * The Benchmark page's fleet, live (browser code): the agents polled from `GET /api/fleet` every
 * few seconds while the page is in sight (one request at a time, slower after failures, none while
 * the page is hidden) and at each job's start and end; and the live view of the picked agent, fed
 * by `GET /api/fleet/events?machine=NAME` (each message's `.event`) through the page's reducer.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import { api } from "./api_client.ts";
import type { LiveEvent } from "./bench_events.ts";
import { agentLive, type FleetList, reconcileAgentLive, reduceAgentLive } from "./fleet_state.ts";
import { initialLive, type LiveState } from "./live_state.ts";

/** The agents as last fetched. */
export const fleetList: Signal<FleetList> = signal({ available: false, reason: null, agents: [] });
/** When they were fetched (the client's clock, for "12 s ago"). */
export const fleetAt: Signal<number> = signal(Date.now());
/** The live view of the followed agent. */
export const agentLiveState: Signal<LiveState> = signal(initialLive("idle"));

/** Milliseconds between polls; after a failure it doubles, up to {@linkcode MAX_POLL_MS}. */
export const POLL_MS = 4000;
export const MAX_POLL_MS = 60_000;

let followed: string | null = null;
let source: EventSource | null = null;
let inFlight: Promise<boolean> | null = null;

/** Fetches the agents now (a fetch under way is shared); resolves whether it worked. */
export function refreshFleet(): Promise<boolean> {
  inFlight ??= api<FleetList>("/api/fleet")
    .then((list) => {
      fleetList.value = list;
      fleetAt.value = Date.now();
      if (followed !== null) {
        const agent = list.agents.find((a) => a.name === followed);
        agentLiveState.value = reconcileAgentLive(agentLiveState.value, agent);
      }
      return true;
    })
    .catch(() => false)
    .finally(() => inFlight = null);
  return inFlight;
}

const hidden = () => globalThis.document?.hidden === true;

/**
 * Shows `initial` and, when the dashboard has a fleet, polls until the returned function is
 * called: every `pollMs` while the page is visible, doubling after each failure up to `maxPollMs`.
 */
export function followFleet(
  initial: FleetList,
  { pollMs = POLL_MS, maxPollMs = MAX_POLL_MS } = {},
): () => void {
  fleetList.value = initial;
  fleetAt.value = Date.now();
  if (!initial.available) return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wait = pollMs;
  let stopped = false;
  const schedule = () => {
    clearTimeout(timer);
    if (!stopped && !hidden()) timer = setTimeout(tick, wait);
  };
  const tick = async () => {
    const ok = await refreshFleet();
    wait = ok ? pollMs : Math.min(wait * 2, maxPollMs);
    schedule();
  };
  const onVisibility = () => hidden() ? clearTimeout(timer) : void tick();
  globalThis.document?.addEventListener("visibilitychange", onVisibility);
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    globalThis.document?.removeEventListener("visibilitychange", onVisibility);
  };
}

/**
 * Follows the agent `name`'s jobs into {@linkcode agentLiveState} (seeded from the fleet list)
 * until the returned function is called or another agent is followed.
 */
export function followAgent(name: string): () => void {
  source?.close();
  followed = name;
  agentLiveState.value = agentLive(fleetList.value.agents.find((a) => a.name === name));
  const own = new EventSource(`/api/fleet/events?machine=${encodeURIComponent(name)}`);
  source = own;
  own.onmessage = (m) => {
    let event: LiveEvent;
    try {
      event = (JSON.parse(m.data) as { event: LiveEvent }).event;
      if (typeof event?.type !== "string") return;
    } catch {
      return; // malformed: the next status resynchronises
    }
    agentLiveState.value = reduceAgentLive(agentLiveState.value, event);
    if (event.type === "job") void refreshFleet();
  };
  return () => {
    own.close();
    if (source !== own) return;
    source = null;
    followed = null;
  };
}
