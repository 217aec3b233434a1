/**
 * ETA accuracy of the Temperature ETA plugin on the Marlin simulator's heaters: the truth is the
 * simulator's physics (`tests/doubles/marlin_physics.ts`), not the estimator's own model.
 *
 * Method. Every heater kind of the simulator (hot end under PID, bed under bang-bang — Marlin's
 * default —, bed under PID, chamber) heats from 20 °C to its target, and is switched off after
 * holding it and cools to the plugin's cooling target. Readings carry Gaussian noise σ 0.3 °C
 * (seeded) and two decimals, at 1 and 2 per second. The plugin's calculator runs with the DEFAULT
 * settings (only `algorithm` varies) as the service runs it: a compute every
 * `calculation_interval`, publications per `update_interval`, the history cleaned every
 * `cleanup_interval` (`tests/plugins/temp_eta/marlin_traces.ts`). Every ETA published from 30 s
 * on until the noise-free reading is within the threshold of the goal is compared with the time
 * actually left: |ETA − left| / left, pooled over the seeds; median and 90th percentile in %,
 * `shown` the share of those publications with an ETA (the rest said `calculating`), `frozen`
 * the longest stretch (s) the ETA went down by less than a second while the temperature moved by
 * more than its noise, `rise` the largest rise of the ETA between two publications (s).
 *
 * Settling short: the bang-bang bed with too little power settles 3 and 1.5 °C below its 60 °C;
 * `stalled after` is the most seconds from settling (the noise-free reading within 0.3 °C of
 * where it ends) to the last publication that was not `stalled`, over the seeds (≤ 30 is the
 * goal), `at_target` the publications that said so (0 is the goal).
 *
 * The default algorithm is the one whose worst heater (largest p90) is best; it is printed last.
 *
 * Run: `deno run -A perf/eta_accuracy.ts [--seeds 6]`
 *
 * @module
 */
import { print } from "../lib/log.ts";
import { parseOptions } from "../lib/args.ts";
import { ALGORITHMS } from "../plugins/temp_eta/schema.ts";
import { validateSettings } from "../plugins/temp_eta/settings.ts";
import {
  AMBIENT,
  errorsOf,
  HEATER_KINDS,
  type HeaterKind,
  longestFreeze,
  quantile,
  type Run,
  runTrace,
} from "../tests/plugins/temp_eta/marlin_traces.ts";

interface Row {
  heater: string;
  direction: string;
  algorithm: string;
  hz: number;
  median: number;
  p90: number;
  shown: number;
  frozen: number;
  rise: number;
}

function riseOf(run: Run): number {
  let rise = 0, last: number | null = null;
  for (const p of run.published) {
    if (p.eta !== null && last !== null) rise = Math.max(rise, p.eta - last);
    last = p.eta;
  }
  return rise;
}

function measure(
  kind: HeaterKind,
  direction: "heating" | "cooling",
  algorithm: string,
  hz: number,
  seeds: number,
): Row {
  const settings = validateSettings({ algorithm });
  const errors: number[] = [];
  let missing = 0, frozen = 0, rise = 0;
  for (let i = 0; i < seeds; i++) {
    const run = runTrace(kind, settings, { seed: 7919 * (i + 1), direction, hz });
    const e = errorsOf(run);
    errors.push(...e.errors);
    missing += e.missing;
    frozen = Math.max(frozen, longestFreeze(run));
    rise = Math.max(rise, riseOf(run));
  }
  errors.sort((a, b) => a - b);
  const total = errors.length + missing;
  return {
    heater: kind.label,
    direction,
    algorithm,
    hz,
    median: quantile(errors, 0.5),
    p90: quantile(errors, 0.9),
    shown: total === 0 ? NaN : (errors.length / total) * 100,
    frozen,
    rise,
  };
}

/** The bang-bang bed settling `short` °C below 60 °C: seconds to `stalled`, `at_target` count. */
function settling(short: number, algorithm: string, seeds: number) {
  const bed = HEATER_KINDS.find((k) => k.label === "bed bang-bang")!;
  const final = bed.target - short;
  const powerShare = ((final - AMBIENT) * bed.body.loss) / bed.body.power;
  const settings = validateSettings({ algorithm });
  let after = 0, atTarget = 0;
  for (let i = 0; i < seeds; i++) {
    const run = runTrace(bed, settings, {
      seed: 7919 * (i + 1),
      direction: "heating",
      powerShare,
      limit: 2000,
    });
    const settled = run.published.find((p) => final - p.sensed < 0.3)?.t ?? Infinity;
    const lastOther = run.published.filter((p) => p.t >= settled && p.state !== "stalled").at(-1);
    after = Math.max(after, lastOther ? lastOther.t - settled + 1 : 0);
    atTarget += run.published.filter((p) => p.state === "at_target").length;
  }
  return { after, atTarget };
}

function main(): void {
  const { values } = parseOptions({
    args: Deno.args,
    options: { seeds: { type: "string", default: "6" } },
  });
  const seeds = Math.max(1, Number(values.seeds) || 6);
  const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");
  print(
    `ETA accuracy on the Marlin simulator's heaters, default settings, σ 0.3 °C, ${seeds} seeds, ` +
      "from 30 s on",
  );
  print(
    "heater".padEnd(15) + "direction".padEnd(10) + "method".padEnd(12) + "Hz".padStart(3) +
      "median %".padStart(10) + "p90 %".padStart(8) + "shown %".padStart(9) +
      "frozen s".padStart(10) + "rise s".padStart(8),
  );
  const worst = new Map<string, number>();
  for (const kind of HEATER_KINDS) {
    for (const direction of ["heating", "cooling"] as const) {
      for (const hz of [1, 2]) {
        for (const algorithm of ALGORITHMS) {
          const r = measure(kind, direction, algorithm, hz, seeds);
          worst.set(algorithm, Math.max(worst.get(algorithm) ?? 0, r.p90));
          print(
            r.heater.padEnd(15) + r.direction.padEnd(10) + r.algorithm.padEnd(12) +
              String(r.hz).padStart(3) + fmt(r.median).padStart(10) + fmt(r.p90).padStart(8) +
              fmt(r.shown).padStart(9) + fmt(r.frozen, 0).padStart(10) +
              fmt(r.rise, 0).padStart(8),
          );
        }
      }
    }
  }
  print("");
  print(
    "bed settling short".padEnd(22) + "method".padEnd(12) + "stalled after s".padStart(16) +
      "at_target".padStart(11),
  );
  for (const short of [3, 1.5]) {
    for (const algorithm of ALGORITHMS) {
      const s = settling(short, algorithm, seeds);
      print(
        `${short} °C short`.padEnd(22) + algorithm.padEnd(12) +
          String(s.after).padStart(16) + String(s.atTarget).padStart(11),
      );
    }
  }
  const ranked = [...worst].sort((a, b) => a[1] - b[1]);
  print("");
  print(
    `default: ${ranked[0]![0]} (worst p90 ${fmt(ranked[0]![1])} %` +
      ranked.slice(1).map(([a, p]) => `; ${a}: ${fmt(p)} %`).join("") + ")",
  );
}

if (import.meta.main) main();
