/**
 * One model on each machine (Comparison): a bar chart of the newest speed of each of its lines
 * (variant, backend and workload) on each machine that measured it, and the machines' newest
 * figures beside their GPU, CPU, memory and model server. With one machine, a sentence says
 * how to add another instead of a chart of one bar.
 *
 * @module
 */
import Chart from "../islands/Chart.tsx";
import { dateTime, fixed } from "../lib/shared/format.ts";
import { shortModelName } from "../lib/shared/model_name.ts";
import type { MachineResult } from "../lib/store/mod.ts";

/** Props of {@linkcode MachinesCard}. */
export interface MachinesCardProps {
  rows: MachineResult[];
}

/** A line's name: the variant, its backend when several, and its workload. */
function lineOf(r: MachineResult, backends: number): string {
  const name = `${shortModelName(r.model_key.replace(/@[^@/]*$/, ""))} ${r.quantization ?? ""}`
    .trim();
  const withBackend = backends > 1 ? `${name} · ${r.backend}` : name;
  return r.workload ? `${withBackend} · ${r.workload}` : withBackend;
}

const machineKey = (r: MachineResult) => r.machine_id ?? "";

/** The card, or nothing when the model has no result. */
export default function MachinesCard({ rows }: MachinesCardProps) {
  if (rows.length === 0) return null;
  const backends = new Set(rows.map((r) => r.backend)).size;
  const machines = [...new Map(rows.map((r) => [machineKey(r), r.machine_name]))];
  const lines = [...new Set(rows.map((r) => lineOf(r, backends)))];
  const speed = new Map(
    rows.map((r) => [`${lineOf(r, backends)}\u0000${machineKey(r)}`, r.tokens_per_sec_mean]),
  );
  return (
    <section class="card" id="machines-card">
      <h2>This model on each machine</h2>
      {machines.length > 1
        ? (
          <Chart
            id="chart-machines"
            label="Newest tokens per second of each line on each machine"
            spec={{
              type: "bar",
              labels: machines.map(([, name]) => name),
              series: lines.map((line) => ({
                label: line,
                data: machines.map(([id]) => speed.get(`${line}\u0000${id}`) ?? null),
              })),
              yTitle: "tokens/s",
            }}
          />
        )
        : (
          <p class="hint" id="machines-one">
            Measured on {machines[0]![1]}{" "}
            only: run the same benchmark on another machine into this store to compare them here.
          </p>
        )}
      <div class="scroll" tabIndex={0} role="region" aria-label="Machines">
        <table class="table" id="machines-table">
          <thead>
            <tr>
              <th>Machine</th>
              <th>Line</th>
              <th>tok/s</th>
              <th>TTFT ms</th>
              <th>GPU</th>
              <th>CPU · RAM</th>
              <th>Server</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.model_key} ${r.params_hash} ${machineKey(r)}`}>
                <td class={r.machine_id === null ? "unknown-machine" : undefined}>
                  {r.machine_name}
                </td>
                <td>{lineOf(r, backends)}</td>
                <td>{fixed(r.tokens_per_sec_mean)}</td>
                <td>{fixed(r.ttft_ms_mean, 0)}</td>
                <td>{r.gpus ?? "–"}</td>
                <td>
                  {[r.cpu_model, r.ram_gb === null ? null : `${r.ram_gb} GiB`].filter(Boolean)
                    .join(" · ") || "–"}
                </td>
                <td>{r.model_server_version ?? "–"}</td>
                <td>{dateTime(r.finished_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
