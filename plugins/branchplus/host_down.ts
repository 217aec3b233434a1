/**
 * The failsafe the launcher applies while the host is down (the descriptor's `failsafe`, run in
 * a process that may reach the hub only): one connection to the hub, each channel's failsafe
 * state sent as on a real stop of the host (`sendFailsafe`), and the connection closed; what was
 * switched is the outcome the launcher logs. The next start of the host finds the outputs as the
 * hub reports them.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import type { FailsafeOutcome } from "../../lib/host/mod.ts";
import type { Logger } from "../../lib/log.ts";
import { sendFailsafe } from "./lifecycle.ts";
import { createHubClient } from "./powerhub_client.ts";
import { type BranchSettings, hubUrl } from "./settings.ts";

/** Options of {@linkcode applyFailsafeWhileDown}. */
export interface HostDownOptions {
  clock: Clock;
  logger: Logger;
  /** Time allowed to connect and receive the hub's snapshot. @default 10000 */
  timeoutMs?: number;
}

/** The delay of the failsafe: `host_down_grace`, or null without a hub. */
export function hostDownDelay(settings: BranchSettings): number | null {
  return settings.host ? settings.host_down_grace : null;
}

/** Connects to the hub of `settings`, sends every channel's failsafe state and closes again. */
export async function applyFailsafeWhileDown(
  settings: BranchSettings,
  options: HostDownOptions,
): Promise<FailsafeOutcome> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const url = hubUrl(settings.host, settings.port, settings.path);
  const { promise: synced, resolve } = Promise.withResolvers<boolean>();
  const cancel = options.clock.setTimeout(() => resolve(false), timeoutMs);
  const client = createHubClient({
    url,
    clock: options.clock,
    logger: options.logger,
    onStates: (update) => {
      if (update.initial) resolve(true);
    },
  });
  try {
    if (!(await synced)) {
      return {
        ok: false,
        message: `no snapshot from the hub at ${url} within ${
          timeoutMs / 1000
        } s: nothing switched`,
      };
    }
    const { sent, held, failed } = sendFailsafe(client, settings.channels, options.logger);
    const names = (list: { kind: string; id: number }[]) =>
      list.map((c) => `${c.kind} ${c.id}`).join(", ");
    const parts = [
      ["switched off", names(sent.filter((s) => !s.on))],
      ["switched on", names(sent.filter((s) => s.on))],
      ["held", names(held)],
      ["not switched", failed.join("; ")],
    ].filter(([, list]) => list !== "").map(([what, list]) => `${what}: ${list}`);
    return { ok: failed.length === 0, message: `hub at ${url}: ${parts.join("; ")}` };
  } finally {
    cancel();
    await client.stop();
  }
}
