/**
 * Live progress from the agents to the dashboards: each benchmark event an agent's job emits is
 * sent with PostgreSQL's NOTIFY on one channel, and every dashboard LISTENs. A notification holds
 * at most 8000 bytes: a bigger event is sent as a marker saying it was left out.
 *
 * @module
 */
import type pg from "pg";
import { connectionOf } from "../store/mod.ts";
import type { SqlClient } from "./registry.ts";

/** The channel's name. */
export const CHANNEL = "localbench_fleet";

/** PostgreSQL's limit on a notification's payload is 8000 bytes; this leaves room. */
const MAX_PAYLOAD = 7900;

/** One event of an agent's job. */
export interface FleetProgress {
  agent: string;
  job: string;
  event: { type: string } & Record<string, unknown>;
}

/** The notification's text for `progress` (its event replaced by a marker when too big). */
export function progressPayload(progress: FleetProgress): string {
  const text = JSON.stringify(progress);
  if (new TextEncoder().encode(text).length <= MAX_PAYLOAD) return text;
  return JSON.stringify({ ...progress, event: { type: progress.event.type, omitted: true } });
}

/** Sends `progress` to every listening dashboard. */
export async function publishProgress(sql: SqlClient, progress: FleetProgress): Promise<void> {
  await sql.query("SELECT pg_notify($1, $2)", [CHANNEL, progressPayload(progress)]);
}

/**
 * Sends an agent's events one after another, so they arrive in the order they happened (a pool
 * would send them on several connections at once). At most `max` wait; beyond that an event is
 * dropped and counted (a database slower than the benchmark), except a job's start and end.
 */
export class ProgressPublisher {
  readonly #sql: SqlClient;
  readonly #max: number;
  #chain: Promise<void> = Promise.resolve();
  #waiting = 0;
  /** Events dropped because too many waited. */
  dropped = 0;

  constructor(sql: SqlClient, max = 1000) {
    this.#sql = sql;
    this.#max = max;
  }

  /** Queues `progress` behind the events before it; failures to send are dropped and counted. */
  publish(progress: FleetProgress): void {
    if (this.#waiting >= this.#max && progress.event.type !== "job") {
      this.dropped++;
      return;
    }
    this.#waiting++;
    this.#chain = this.#chain
      .then(() => publishProgress(this.#sql, progress))
      .catch(() => void this.dropped++)
      .finally(() => void this.#waiting--);
  }

  /** Resolves once every queued event was sent (or dropped). */
  flushed(): Promise<void> {
    return this.#chain;
  }
}

/**
 * Listens on its own connection to `url`; calls `onProgress` with each event. Returns the stop
 * function. A connection lost is reported to `onError` and the caller decides (the dashboard
 * opens a new listener).
 */
export async function listenProgress(
  url: string,
  onProgress: (progress: FleetProgress) => void,
  onError: (err: unknown) => void = () => {},
): Promise<() => Promise<void>> {
  // pg loads with the fleet, not with every program that imports lib/fleet (the dashboard's routes).
  const { default: { Client } } = await import("pg");
  const client: pg.Client = new Client(connectionOf(url));
  client.on("error", onError);
  await client.connect();
  client.on("notification", (n: { channel: string; payload?: string }) => {
    if (n.channel !== CHANNEL || !n.payload) return;
    try {
      const progress = JSON.parse(n.payload) as FleetProgress;
      if (typeof progress.agent === "string" && progress.event) onProgress(progress);
    } catch {
      // Not ours (another program on the channel): ignored.
    }
  });
  await client.query(`LISTEN ${CHANNEL}`);
  return async () => {
    await client.end().catch(() => {});
  };
}
