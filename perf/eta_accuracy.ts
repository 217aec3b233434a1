/**
 * ETA accuracy of the Temperature ETA plugin on heaters it does not model, read the way a printer
 * reports them.
 *
 * Method. Each heater model (tests/plugins/temp_eta/heaters.ts) heats from 22 °C to its target and
 * is read through a sensor with Gaussian noise σ = 0.3 °C rounded to 0.1 °C (seeded), at 1 and at
 * 2 readings per second. The plugin's calculator runs with the DEFAULT settings (only `algorithm`
 * changed) as the service runs it: a compute every `calculation_interval`, publications per
 * `update_interval`, the history cleaned every `cleanup_interval`. Every published ETA from 30 s
 * after the target was set until the display says `at_target` is compared with the true time left
 * until the noise-free temperature is within `heating_threshold` of the target; the error is
 * |ETA − truth| / truth. Per heater, method and reading rate, the errors of all seeds are pooled:
 * median and 90th percentile in %, the share of those publications that showed an ETA at all
 * (`shown`; the rest said `calculating` or `stalled`), the largest rise of the published ETA
 * between two publications (`rise`, seconds; 0 = it only counted down) and the publications saying
 * `stalled` while the temperature rose.
 *
 * Heater models: a first-order hot end (τ 40 s) and bed (τ 120 s, the virtual printer's); a hot end
 * under a Marlin-style PID with a lagging sensor (overshoots ~3 °C); a bed with a slow mass under
 * P+I whose integral creeps over the last degrees (the long tail), and the same bed with twice the
 * integral gain (within 0.05 °C of it for 175 s, then in 90 s earlier); an underpowered bang-bang
 * bed; a bed with two time constants. The peer row is the reference plugin's estimate on the same
 * readings: endpoint slope over 10 s, ETA = distance / slope, no smoothing, no `min_rate`.
 *
 * Run: `deno run perf/eta_accuracy.ts [--seeds 10]`
 *
 * @module
 */
import { print } from "../lib/log.ts";
import { validateSettings } from "../plugins/temp_eta/settings.ts";
import { windowOf } from "../plugins/temp_eta/estimate.ts";
import {
  firstOrderHeater,
  longTailBed,
  pidHotend,
  type SimHeater,
  twoTauBed,
  weakBed,
} from "../tests/plugins/temp_eta/heaters.ts";
import {
  metricsOf,
  type Published,
  quantile,
  type Run,
  simulate,
  simulatePlugin,
  type Subject,
} from "../tests/plugins/temp_eta/simulate.ts";
import { parseOptions } from "../lib/args.ts";

const HEATERS: Array<[string, () => SimHeater]> = [
  ["first-order tool 210", () => firstOrderHeater("tool0", 210, 40)],
  ["first-order bed 80", () => firstOrderHeater("bed", 80, 120)],
  ["PID hot end 210", () => pidHotend()],
  ["bed, long tail 80", () => longTailBed()],
  ["bed, fast integral 80", () => longTailBed("bed", 80, 0.002)],
  ["weak bed 80", () => weakBed()],
  ["two-τ bed 80", () => twoTauBed()],
];

/** The reference plugin's linear estimate: endpoint slope over 10 s, ETA to the goal. */
function referencePeer(target: number): Subject {
  const samples: Array<{ t: number; actual: number }> = [];
  let next = 0;
  return {
    read: (t, actual) => void samples.push({ t, actual }),
    publish: (t) => {
      if (t < next) return [];
      next = t + 1;
      const w = windowOf(samples, 10);
      const first = w[0], last = w[w.length - 1];
      if (!first || !last) return [];
      if (target - last.actual <= 1) return [{ state: "at_target", eta: null }];
      if (last.t <= first.t || last.actual <= first.actual) {
        return [{ state: "calculating", eta: null }];
      }
      const rate = (last.actual - first.actual) / (last.t - first.t);
      return [{ state: "heating", eta: (target - 1 - last.actual) / rate }];
    },
  };
}

interface Row {
  heater: string;
  method: string;
  hz: number;
  median: number;
  p90: number;
  shown: number;
  rise: number;
  stalled: number;
}

function errorsOf(run: Run): { errors: number[]; total: number } {
  const errors: number[] = [];
  let total = 0;
  for (const p of run.published as Published[]) {
    const left = run.reached - p.t;
    if (p.t < 30 || left <= 0 || p.state === "at_target") continue;
    total++;
    if (p.eta !== null) errors.push((Math.abs(p.eta - left) / left) * 100);
  }
  return { errors, total };
}

function row(heater: string, method: string, hz: number, runs: Run[]): Row {
  const errors: number[] = [];
  let total = 0, rise = 0, stalled = 0;
  for (const run of runs) {
    const e = errorsOf(run);
    errors.push(...e.errors);
    total += e.total;
    const m = metricsOf(run);
    rise = Math.max(rise, m.maxIncrease);
    stalled += m.stalledWhileRising;
  }
  errors.sort((a, b) => a - b);
  return {
    heater,
    method,
    hz,
    median: quantile(errors, 0.5),
    p90: quantile(errors, 0.9),
    shown: total === 0 ? NaN : (errors.length / total) * 100,
    rise,
    stalled,
  };
}

function main(): void {
  const { values } = parseOptions({
    args: Deno.args,
    options: { seeds: { type: "string", default: "10" } },
  });
  const seeds = Math.max(1, Number(values.seeds) || 10);
  const rows: Row[] = [];
  for (const [name, make] of HEATERS) {
    for (const hz of [1, 2]) {
      for (const algorithm of ["linear", "exponential"] as const) {
        const settings = validateSettings({ algorithm });
        const runs = Array.from(
          { length: seeds },
          (_, i) => simulatePlugin(make(), settings, { seed: 7919 * (i + 1), hz }),
        );
        rows.push(row(name, algorithm, hz, runs));
      }
      const peer = Array.from({ length: seeds }, (_, i) => {
        const h = make();
        return simulate(h, referencePeer(h.target), { seed: 7919 * (i + 1), hz, interval: 1 });
      });
      rows.push(row(name, "peer: reference", hz, peer));
    }
  }
  const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");
  print(`ETA accuracy, default settings, σ 0.3 °C / 0.1 °C readings, ${seeds} seeds, from 30 s on`);
  print(
    "heater".padEnd(23) + "method".padEnd(17) + "Hz".padStart(3) + "median %".padStart(10) +
      "p90 %".padStart(9) + "shown %".padStart(9) + "rise s".padStart(8) + "stalled".padStart(9),
  );
  for (const r of rows) {
    print(
      r.heater.padEnd(23) + r.method.padEnd(17) + String(r.hz).padStart(3) +
        fmt(r.median).padStart(10) + fmt(r.p90).padStart(9) + fmt(r.shown).padStart(9) +
        fmt(r.rise).padStart(8) + String(r.stalled).padStart(9),
    );
  }
}

if (import.meta.main) main();
