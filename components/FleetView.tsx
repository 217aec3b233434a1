/**
 * The Benchmark page's fleet view: every agent with its machine (host, CPU, RAM, GPU), whether it
 * runs (its last heartbeat), its current job (arguments, model, progress) and how its last job
 * ended — and, for an agent killed mid-job, what became of that job.
 *
 * @module
 */
import {
  ago,
  currentJobText,
  type FleetAgent,
  type FleetList,
  lastJobText,
  machineFacts,
} from "./fleet_state.ts";

/** Props of {@linkcode FleetView}. */
export interface FleetViewProps {
  list: FleetList;
  /** When the list was fetched (ms), for the heartbeats' ages. */
  now: number;
}

function AgentRow({ agent: a, now }: { agent: FleetAgent; now: number }) {
  const m = machineFacts(a.machine);
  const job = currentJobText(a);
  const current = job && !a.live ? `${job} (no heartbeat since)` : job;
  const last = lastJobText(a.last_job);
  const state = a.live ? "live" : a.stopped_at ? "stopped" : "offline";
  return (
    <>
      <tr data-agent={a.name} data-live={String(a.live)}>
        <th scope="row">{a.name}</th>
        <td class="fleet-machine" data-label="Machine">
          <span>{m.host ?? "unknown host"}</span>
          <small>
            {[m.cpu, m.ram, m.gpu ?? "no GPU reported"].filter(Boolean).join(" · ")}
          </small>
        </td>
        <td data-label="Heartbeat">
          <span class={`badge ${a.live ? "running" : ""}`}>{state}</span>{" "}
          <small title={a.last_heartbeat}>{ago(a.last_heartbeat, now)}</small>
        </td>
        <td class="fleet-job" data-job="current" data-label="Current job">{current ?? "–"}</td>
        <td
          class={`fleet-job ${a.last_job?.state === "failed" ? "delta-down" : ""}`}
          data-job="last"
          data-label="Last job"
          data-state={a.last_job?.state}
        >
          {last ?? "–"}
        </td>
      </tr>
      {a.lost && (
        <tr class="fleet-lost" data-lost={a.name}>
          <td colSpan={5}>{a.lost}</td>
        </tr>
      )}
    </>
  );
}

/** The fleet view (nothing when the dashboard has no fleet). */
export function FleetView({ list, now }: FleetViewProps) {
  if (!list.available) return null;
  return (
    <section id="fleet" class="card" aria-labelledby="fleet-title">
      <h2 id="fleet-title">Fleet</h2>
      {list.reason && <p class="hint" id="fleet-reason">{list.reason}</p>}
      {list.agents.length === 0
        ? (
          <p class="empty" id="fleet-empty">
            No agent has registered yet: run <code>deno task agent -- --store URL --name NAME</code>
            {" "}
            on another machine.
          </p>
        )
        : (
          <div class="scroll" tabIndex={0} role="region" aria-label="Fleet agents">
            <table class="table fleet-table">
              <thead>
                <tr>
                  <th scope="col">Agent</th>
                  <th scope="col">Machine</th>
                  <th scope="col">Heartbeat</th>
                  <th scope="col">Current job</th>
                  <th scope="col">Last job</th>
                </tr>
              </thead>
              <tbody>
                {list.agents.map((a) => <AgentRow key={a.name} agent={a} now={now} />)}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
