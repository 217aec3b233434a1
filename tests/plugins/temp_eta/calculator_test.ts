import assert from "node:assert/strict";
import { compareHeaters, EtaCalculator } from "../../../plugins/temp_eta/calculator.ts";
import { alertOf } from "../../../plugins/temp_eta/alerts.ts";
import { coolingTargetOf } from "../../../plugins/temp_eta/classify.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";
import { gaussian } from "./heaters.ts";
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
  feed(calc, "tool0", { start: 0, seconds: 20, from: 20, rate: 1, target: 101 });
  const s = only(calc, "tool0");
  assert.equal(s.state, "heating");
  assert.equal(s.eta_kind, "heating");
  // 60 °C to go at a steady 1 °C/s: no sooner than 60 s, plus braking over the last 10 °C.
  assert.ok(s.eta_seconds! >= 60 && s.eta_seconds! < 100, `eta ${s.eta_seconds}`);
  assert.ok(Math.abs(s.rate! - 1) < 1e-9);
  assert.equal(s.target, 101);
  assert.equal(s.actual, 40);
  assert.equal(s.cooling_target, 50);
  assert.ok(Math.abs(s.progress! - (20 / 81) * 100) < 1e-9);
  assert.equal(s.timestamp, T0 / 1000);
  assert.equal(s.method, "linear");
});

Deno.test("EtaCalculator reports the exponential method once its window holds enough samples", () => {
  const calc = new EtaCalculator(validateSettings({ algorithm: "exponential" }));
  feed(calc, "tool0", { start: 0, seconds: 20, from: 20, rate: 2, target: 200 });
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
  feed(calc, "bed", { start: 0, seconds: 20, from: 40, rate: 0.004, target: 60 });
  const s = only(calc, "bed");
  assert.equal(s.state, "stalled");
  assert.equal(s.eta_seconds, null);
  assert.ok(Math.abs(s.rate! - 0.004) < 1e-9);
  // The same rate with 19 °C to go and max_eta 7200 s is slow, not stuck.
  const patient = new EtaCalculator(validateSettings({ min_rate: 0.1, max_eta: 7200 }));
  feed(patient, "bed", { start: 0, seconds: 20, from: 40, rate: 0.004, target: 60 });
  assert.notEqual(only(patient, "bed").state, "stalled");
  // 0.05 °C/s (below min_rate) with 19 °C to go arrives in minutes: not stalled either.
  const creeping = new EtaCalculator(validateSettings({ min_rate: 0.1 }));
  feed(creeping, "bed", { start: 0, seconds: 20, from: 40, rate: 0.05, target: 60 });
  assert.equal(only(creeping, "bed").state, "heating");
  // A heater that stopped rising is stalled however close it is.
  const flat = new EtaCalculator(validateSettings({}));
  feed(flat, "bed", { start: 0, seconds: 20, from: 55, rate: 0, target: 60 });
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
  const t = feed(calc, "tool0", { start: 0, seconds: 20, from: 20, rate: 2, target: 200 });
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
  feed(calc, "tool0", { start: 0, seconds: 20, from: 20, rate: 2, target: 200 });
  feed(calc, "bed", { start: 0, seconds: 17.5, from: 41, rate: 1, target: 60 });
  const names = (now: number) => calc.tick(now).due.map((s) => s.heater);
  assert.deepEqual(calc.statuses(), []);
  assert.deepEqual(calc.compute(T0).map((s) => s.state), ["heating", "heating"]);
  assert.deepEqual(names(T0), ["tool0", "bed"]);
  assert.deepEqual(names(T0 + 500), []);
  assert.deepEqual(names(T0 + 1000), ["tool0", "bed"]);
  // The bed reaches its target: its change is published at once, the tool waits its turn.
  calc.addReading("bed", { actual: 59.5, target: 60 }, 18);
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

Deno.test("alertOf() announces target reached and cooled down by the settings", () => {
  const change = {
    heater: "tool0",
    state: "at_target" as const,
    previous_state: "heating" as const,
    previous_kind: "heating" as const,
    timestamp: 1,
    actual: 209.5,
    target: 210,
  };
  assert.deepEqual(alertOf(change, validateSettings({ heating_sound_enabled: true })), {
    heater: "tool0",
    event: "heating_done",
    message: "Tool0: reached 210°C",
    notification: true,
    sound_url: "/plugin/temp_eta/static/sounds/heating_done.wav",
    timestamp: 1,
  });
  assert.equal(alertOf(change, validateSettings({ heating_notification_enabled: false })), null);
  const cooled = {
    ...change,
    heater: "bed",
    state: "cooled_down" as const,
    previous_state: "cooling" as const,
    previous_kind: "cooling" as const,
    actual: 40.6,
    target: null,
  };
  const alert = alertOf(
    cooled,
    validateSettings({ cooling_notification_enabled: false, cooling_sound_enabled: true }),
  );
  assert.equal(alert?.event, "cooling_done");
  assert.equal(alert?.message, "Bed: cooled down to 40.6°C");
  assert.equal(alert?.notification, false);
  assert.equal(alert?.sound_url, "/plugin/temp_eta/static/sounds/cooling_done.wav");
  assert.equal(alertOf({ ...change, previous_kind: null }, validateSettings({})), null);
});
