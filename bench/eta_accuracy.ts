/**
 * ETA accuracy of the Temperature ETA plugin on the host's virtual printer (first-order thermal
 * model, lib/host/printer): tool0 heats to 210 °C and the bed to 60 °C from room temperature.
 * For each algorithm, the median absolute ETA error as a percentage of the true remaining time,
 * taken every simulated second from 30 s after the start until the heater is within the heating
 * threshold of its target. Coverage is the share of those seconds that showed an ETA at all
 * (the rest showed `stalled` or `calculating`). The peer row is the reference plugin's estimate:
 * a two-point slope over the linear window (no regression).
 *
 * Run: `deno run bench/eta_accuracy.ts`
 *
 * @module
 */
import { print } from "../lib/log.ts";
import { VirtualPrinter } from "../lib/host/printer/virtual_printer.ts";
import { EtaCalculator } from "../plugins/temp_eta/calculator.ts";
import { windowOf } from "../plugins/temp_eta/estimate.ts";
import { validateSettings } from "../plugins/temp_eta/settings.ts";
import type { TempEtaSettings } from "../plugins/temp_eta/schema.ts";

const TARGETS: Record<string, number> = { tool0: 210, bed: 60 };
const START_AFTER = 30;
const LIMIT = 3600;

type Estimator = (heater: string, t: number) => number | null;

interface Row {
  name: string;
  heater: string;
  median: number;
  p90: number;
  coverage: number;
  samples: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[i]!;
}

/** Runs one heating from room temperature; `estimator` sees the printer through `feed`. */
function run(
  name: string,
  threshold: number,
  make: () => { feed: (snapshot: ReturnType<VirtualPrinter["snapshot"]>) => void; eta: Estimator },
): Row[] {
  const printer = new VirtualPrinter();
  const { feed, eta } = make();
  for (const [heater, target] of Object.entries(TARGETS)) printer.setTarget(heater, target);
  const trace: Array<{ t: number; etas: Record<string, number | null> }> = [];
  const reached: Record<string, number> = {};
  for (let t = 1; t <= LIMIT && Object.keys(reached).length < 2; t++) {
    printer.tick(1);
    const snapshot = printer.snapshot();
    feed(snapshot);
    const etas: Record<string, number | null> = {};
    for (const [heater, target] of Object.entries(TARGETS)) {
      if (reached[heater] !== undefined) continue;
      if (target - snapshot.temperatures[heater]!.actual <= threshold) reached[heater] = t;
      else etas[heater] = eta(heater, t);
    }
    trace.push({ t, etas });
  }
  return Object.keys(TARGETS).map((heater) => {
    const errors: number[] = [];
    let shown = 0, total = 0;
    for (const { t, etas } of trace) {
      if (t < START_AFTER || !(heater in etas)) continue;
      total++;
      const e = etas[heater];
      if (e === null || e === undefined) continue;
      shown++;
      const truth = reached[heater]! - t;
      errors.push((Math.abs(e - truth) / truth) * 100);
    }
    errors.sort((a, b) => a - b);
    return {
      name,
      heater,
      median: quantile(errors, 0.5),
      p90: quantile(errors, 0.9),
      coverage: total === 0 ? NaN : (shown / total) * 100,
      samples: errors.length,
    };
  });
}

function plugin(settings: TempEtaSettings) {
  return () => {
    const calc = new EtaCalculator(settings);
    let now = 0;
    return {
      feed: (snap: ReturnType<VirtualPrinter["snapshot"]>) => {
        now = snap.time;
        for (const [h, r] of Object.entries(snap.temperatures)) calc.addReading(h, r, now / 1000);
      },
      eta: (heater: string) =>
        calc.compute(now).find((s) => s.heater === heater)?.eta_seconds ?? null,
    };
  };
}

/** The reference plugin's linear estimate: endpoint slope over the window, ETA to the target. */
function referencePeer(window: number) {
  return () => {
    const samples: Record<string, Array<{ t: number; actual: number }>> = {};
    return {
      feed: (snap: ReturnType<VirtualPrinter["snapshot"]>) => {
        for (const [h, r] of Object.entries(snap.temperatures)) {
          (samples[h] ??= []).push({ t: snap.time / 1000, actual: r.actual });
        }
      },
      eta: (heater: string) => {
        const w = windowOf(samples[heater] ?? [], window);
        const first = w[0], last = w[w.length - 1];
        if (!first || !last || last.t <= first.t || last.actual <= first.actual) return null;
        const rate = (last.actual - first.actual) / (last.t - first.t);
        return (TARGETS[heater]! - last.actual) / rate;
      },
    };
  };
}

const defaults = validateSettings({});
const permissive = { min_rate: 0.01, max_eta: 7200 };
const rows = [
  ...run("linear", 1, plugin(validateSettings({ algorithm: "linear" }))),
  ...run("exponential", 1, plugin(validateSettings({ algorithm: "exponential" }))),
  ...run("linear, min_rate 0.01", 1, plugin(validateSettings({ ...permissive }))),
  ...run(
    "exponential, min_rate 0.01",
    1,
    plugin(validateSettings({ algorithm: "exponential", ...permissive })),
  ),
  ...run("peer: reference endpoint slope", 1, referencePeer(defaults.linear_window)),
];

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "-");
print(`ETA accuracy on the virtual printer (from ${START_AFTER} s after the start)`);
print(
  "estimator".padEnd(32) + "heater".padEnd(8) + "median %".padStart(10) + "p90 %".padStart(9) +
    "coverage %".padStart(12) + "n".padStart(6),
);
for (const r of rows) {
  print(
    r.name.padEnd(32) + r.heater.padEnd(8) + fmt(r.median).padStart(10) + fmt(r.p90).padStart(9) +
      fmt(r.coverage).padStart(12) + String(r.samples).padStart(6),
  );
}
