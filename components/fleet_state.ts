/**
 * The Benchmark page's fleet, pure (browser-safe): the agents as `GET /api/fleet` lists them, in
 * words (machine, heartbeat, current and last job), the machine picker's choices, and the live
 * view of a job on an agent — its events folded by the page's own reducer (`live_state.ts`), plus
 * the job's start and end and what the fleet list says when the stream missed them.
 *
 * @module
 */
import { fixed } from "../lib/shared/format.ts";
import type { FleetAgentView, FleetAnswer, FleetJobInfo } from "../lib/fleet/mod.ts";
import type { LiveEvent } from "./bench_events.ts";
import { initialLive, type LiveOutcome, type LiveState, reduceLive } from "./live_state.ts";

/** A job of an agent's queue (`last_job`): the server's own type. */
export type FleetJob = FleetJobInfo;

/** An agent as `GET /api/fleet` lists it. */
export type FleetAgent = FleetAgentView;

/** `GET /api/fleet`. */
export type FleetList = FleetAnswer;

/** A choice of the machine picker (`value` "" is this machine). */
export interface MachineChoice {
  value: string;
  label: string;
  disabled: boolean;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

/** "12 s ago", "3 min ago", "2 h ago", "4 d ago" ("just now" for a clock a bit ahead). */
export function ago(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return "at an unknown time";
  const s = Math.round((now - then) / 1000);
  if (s < 2) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/** The machine's host, CPU cores, RAM and GPUs in words (null: the agent did not say). */
export function machineFacts(m: Record<string, unknown>) {
  const cores = num(m.cpu_cores);
  const bytes = num(m.ram_bytes);
  const gb = bytes !== null ? bytes / 1024 ** 3 : num(m.ram_gb);
  const gpus = Array.isArray(m.gpus)
    ? m.gpus.map((g) => text((g as Record<string, unknown>)?.name) ?? text(g)).filter(Boolean)
    : [text(m.gpu)].filter(Boolean);
  return {
    host: text(m.hostname),
    os: text(m.os),
    cpu: [text(m.cpu_model), cores === null ? null : `${cores} cores`].filter(Boolean).join(", ") ||
      null,
    ram: gb === null ? null : `${fixed(gb, 1)} GiB`,
    gpu: gpus.length > 0 ? gpus.join(" + ") : null,
  };
}

/** Why a job failed, from its output (`{message}` or pg-boss's `{value: {message}}`). */
export function jobError(job: FleetJob | null): string | null {
  const out = job?.output;
  if (!out) return null;
  const value = out.value as Record<string, unknown> | undefined;
  return text(out.message) ?? text(value?.message) ?? text(out.error) ?? text(value) ?? null;
}

/** An agent's current job in words: its arguments, model and progress (from its status). */
export function currentJobText(agent: FleetAgent): string | null {
  const job = agent.current_job;
  if (!job) return null;
  const s = job.status;
  const progress = s?.progress as Record<string, unknown> | undefined;
  const percent = num(progress?.percent);
  const parts = [
    job.args.length > 0 ? job.args.join(" ") : "default arguments",
    text(s?.model),
    percent === null ? null : `${Math.round(percent)}%`,
    text(progress?.detail),
  ];
  return parts.filter(Boolean).join(" · ");
}

/** The last job's state in words: "completed", "failed: why", "queued"… */
export function lastJobText(job: FleetJob | null): string | null {
  if (!job) return null;
  if (job.state === "failed") return `failed: ${jobError(job) ?? "no reason given"}`;
  if (job.state === "created" || job.state === "retry") return "queued";
  if (job.state === "active") return "running";
  return job.state;
}

/** The picker's choices: this machine, then every agent (those not running disabled). */
export function machineChoices(list: FleetList, now: number): MachineChoice[] {
  return [
    { value: "", label: "This machine", disabled: false },
    ...list.agents.map((a) => ({
      value: a.name,
      label: a.live
        ? `${a.name}${a.current_job ? " (busy)" : ""}`
        : `${a.name} (offline, last heartbeat ${ago(a.last_heartbeat, now)})`,
      disabled: !a.live,
    })),
  ];
}

/** How an agent's last job ended, as the live view's outcome (null: none ended). */
function lastOutcome(agent: FleetAgent): LiveOutcome | null {
  if (agent.lost) return failedOutcome(agent.lost);
  const job = agent.last_job;
  if (job?.state === "failed") return failedOutcome(jobError(job) ?? "the job failed");
  if (job?.state !== "completed") return null;
  const o = job.output ?? {};
  return {
    outcome: text(o.outcome) ?? "completed",
    error: text(o.error),
    tested: num(o.tested) ?? 0,
    partial: num(o.partial) ?? 0,
    failed: num(o.failed) ?? 0,
    skipped: num(o.skipped) ?? 0,
  };
}

function failedOutcome(error: string): LiveOutcome {
  return { outcome: "failed", error, tested: 0, failed: 0, skipped: 0 };
}

/** The live view of `agent` before its events: its job's last status, or how its last job ended. */
export function agentLive(agent: FleetAgent | undefined): LiveState {
  const status = agent?.current_job?.status;
  if (status) return reduceLive(initialLive("running"), { ...status, type: "status" });
  if (agent?.current_job) return initialLive("running");
  return { ...initialLive("idle"), outcome: agent ? lastOutcome(agent) : null };
}

/** Applies one event of an agent's job (its `{type: "job"}` start and end included). */
export function reduceAgentLive(s: LiveState, e: LiveEvent, now = Date.now()): LiveState {
  if (e.omitted === true) return s; // too big for a notification: the next status resynchronises
  if (e.type !== "job") return reduceLive(s, e, now);
  if (e.state === "active") return initialLive("running");
  if (e.state === "failed") {
    const error = text(e.error) ?? "the job failed";
    const said = s.outcome?.outcome === "failed" && s.status === "idle";
    const next = said ? s : reduceLive(s, { type: "log", level: "error", message: error }, now);
    return { ...next, status: "idle", outcome: said ? s.outcome : failedOutcome(error) };
  }
  return { ...s, status: "idle" };
}

/**
 * The live view of `agent` checked against the fleet list: a job the list shows ended (or lost
 * with its killed agent) while the view still runs — its end event missed — ends the view too.
 */
export function reconcileAgentLive(s: LiveState, agent: FleetAgent | undefined): LiveState {
  if (!agent || s.status === "idle") return s;
  if (agent.lost) return reduceAgentLive(s, { type: "job", state: "failed", error: agent.lost });
  const ended = agent.last_job?.state === "completed" || agent.last_job?.state === "failed";
  if (agent.current_job || !ended) return s;
  return { ...s, status: "idle", outcome: lastOutcome(agent) };
}
