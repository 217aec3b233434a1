import assert from "node:assert/strict";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";
import {
  AMBIENT,
  errorsOf,
  HEATER_KINDS,
  type HeaterKind,
  longestFreeze,
  quantile,
  runTrace,
} from "./marlin_traces.ts";

// The estimator (SegmentTracker through the plugin's calculator, default settings) against the
// Marlin simulator's heater physics, read with σ 0.3 °C noise and fixed seeds: the truth is the
// physics, not the estimator's model. Issue 26.1.

const DEFAULTS = validateSettings({});
const SEEDS = [11, 12, 13];

function kind(label: string): HeaterKind {
  const k = HEATER_KINDS.find((h) => h.label === label);
  assert.ok(k, label);
  return k;
}

for (const k of HEATER_KINDS) {
  for (const direction of ["heating", "cooling"] as const) {
    Deno.test(`the ETA of the ${k.label} ${direction} is within 10 % (median) and 25 % (p90) of the time left`, () => {
      for (const hz of [1, 2]) {
        const errors: number[] = [];
        for (const seed of SEEDS) {
          const run = runTrace(k, DEFAULTS, { seed, direction, hz });
          assert.ok(Number.isFinite(run.reached), `${direction} never arrived (seed ${seed})`);
          errors.push(...errorsOf(run).errors);
        }
        errors.sort((a, b) => a - b);
        assert.ok(errors.length > 20, `${errors.length} ETAs shown at ${hz} Hz`);
        const median = quantile(errors, 0.5), p90 = quantile(errors, 0.9);
        assert.ok(median <= 10, `${hz} Hz: median ${median.toFixed(1)} %`);
        assert.ok(p90 <= 25, `${hz} Hz: p90 ${p90.toFixed(1)} %`);
      }
    });
  }
}

Deno.test("the shown ETA never stands still for over 5 s while the temperature moves", () => {
  for (const k of HEATER_KINDS) {
    for (const direction of ["heating", "cooling"] as const) {
      for (const seed of SEEDS) {
        const run = runTrace(k, DEFAULTS, { seed, direction });
        const frozen = longestFreeze(run);
        assert.ok(frozen <= 5, `${k.label} ${direction}, seed ${seed}: frozen for ${frozen} s`);
      }
    }
  }
});

/** The bed too weak for its 60 °C: it settles `short` °C below it. */
function settlingBed(short: number, seed: number) {
  const bed = kind("bed bang-bang");
  const final = bed.target - short;
  const powerShare = ((final - AMBIENT) * bed.body.loss) / bed.body.power;
  const run = runTrace(bed, DEFAULTS, { seed, direction: "heating", powerShare, limit: 2000 });
  // Settled: the noise-free reading within the noise (0.3 °C) of where it ends.
  const settled = run.published.find((p) => final - p.sensed < 0.3);
  assert.ok(settled, "the bed settles within the run");
  return { run, settled: settled.t, final };
}

for (const short of [3, 1.5]) {
  Deno.test(`a bed settling ${short} °C short of its target is 'stalled' within 30 s and stays so`, () => {
    for (const seed of SEEDS) {
      const { run, settled } = settlingBed(short, seed);
      const late = run.published.filter((p) => p.t >= settled + 30);
      assert.ok(late.length > 100, "published long after settling");
      const other = late.filter((p) => p.state !== "stalled");
      assert.deepEqual(
        other.slice(0, 3).map((p) => [p.t, p.state]),
        [],
        `seed ${seed}: settled at ${settled} s`,
      );
    }
  });
}

Deno.test("'at_target' (the heating-done alert) never fires outside the heating threshold", () => {
  const threshold = DEFAULTS.heating_threshold;
  for (const seed of SEEDS) {
    for (const short of [3, 1.5, 1.2]) {
      const { run } = settlingBed(short, seed);
      const arrived = run.published.filter((p) => p.state === "at_target");
      assert.deepEqual(arrived.map((p) => p.t), [], `${short} °C short, seed ${seed}`);
    }
    // Heaters that do arrive: the alert fires once, only inside the threshold.
    for (const k of HEATER_KINDS) {
      const run = runTrace(k, DEFAULTS, { seed, direction: "heating" });
      const changes = run.published.filter((p) => p.changed && p.state === "at_target");
      assert.equal(changes.length, 1, `${k.label}, seed ${seed}`);
      const at = changes[0]!;
      assert.ok(k.target - at.sensed <= threshold, `${k.label} at ${at.sensed.toFixed(2)} °C`);
    }
  }
});
