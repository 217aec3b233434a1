import assert from "node:assert/strict";
import { BangBang, BED, CHAMBER, Heater, HOTEND, Pid, seededRandom } from "./marlin_physics.ts";

/** Runs `heater` for `seconds`, one reading a second. */
function run(heater: Heater, seconds: number): number[] {
  const readings: number[] = [];
  for (let t = 0; t < seconds; t++) {
    heater.advance(1);
    readings.push(heater.reading);
  }
  return readings;
}

Deno.test("the PID hot end reaches 210 °C in a plausible time and overshoots by little", () => {
  const hotend = new Heater(HOTEND, new Pid(), 20, 1);
  hotend.target = 210;
  const readings = run(hotend, 300);
  const reached = readings.findIndex((r) => r >= 209);
  assert.ok(reached > 40 && reached < 150, `reached 209 °C after ${reached} s`);
  assert.ok(Math.max(...readings) < 218, `overshoot to ${Math.max(...readings)}`);
  const settled = readings.slice(200);
  assert.ok(settled.every((r) => Math.abs(r - 210) < 2), `settled within 2 °C: ${settled}`);
  assert.ok(hotend.power > 0 && hotend.power < 127, "holding takes part of the power");
});

Deno.test("the bang-bang bed heats at full power, then oscillates within its hysteresis", () => {
  const bed = new Heater(BED, new BangBang(5, 2), 20, 2);
  bed.target = 60;
  const heating = run(bed, 90);
  assert.ok(heating.at(-1)! < 60 && heating.at(-1)! > 45, `after 90 s: ${heating.at(-1)}`);
  const powers: number[] = [];
  const holding: number[] = [];
  for (let t = 0; t < 900; t++) {
    bed.advance(1);
    if (t > 150) {
      holding.push(bed.reading);
      powers.push(bed.power);
    }
  }
  assert.ok(powers.every((p) => p === 0 || p === 127), "bang-bang is on or off");
  const switches = powers.filter((p, i) => i > 0 && p !== powers[i - 1]).length;
  assert.ok(switches >= 6, `it keeps switching (${switches} times)`);
  const [low, high] = [Math.min(...holding), Math.max(...holding)];
  assert.ok(low > 60 - 2 - 2 && high < 60 + 2 + 3, `held between ${low} and ${high}`);
  assert.ok(low < 59 && high > 61, "it does swing around the target");
});

Deno.test("Marlin's default bed (5 s checks, no hysteresis) stays close to its target", () => {
  const bed = new Heater(BED, new BangBang(), 20, 3);
  bed.target = 60;
  const holding = run(bed, 900).slice(300);
  assert.ok(
    holding.every((r) => Math.abs(r - 60) < 3),
    `${Math.min(...holding)}..${Math.max(...holding)}`,
  );
});

Deno.test("a heater too weak for its target settles short at ambient + power / loss", () => {
  const weak = new Heater({ ...HOTEND, power: 10 }, new Pid(), 20, 1);
  weak.target = 210;
  const readings = run(weak, 1500);
  const expected = 20 + 10 / HOTEND.loss;
  assert.ok(
    Math.abs(readings.at(-1)! - expected) < 2,
    `settled at ${readings.at(-1)}, not ${expected}`,
  );
  assert.equal(weak.power, 127, "still at full power");
});

Deno.test("a draught makes a heater settle short of a target it reaches in still air", () => {
  const final = (draught: number) => {
    const hotend = new Heater(HOTEND, new Pid(), 20, 1);
    hotend.target = 250;
    hotend.draught = draught;
    return run(hotend, 1200).at(-1)!;
  };
  assert.ok(Math.abs(final(0) - 250) < 2, `still air: ${final(0)}`);
  assert.ok(final(0.15) < 240 && final(0.15) > 180, `in a draught: ${final(0.15)}`);
});

Deno.test("a heater turned off cools toward ambient and never below it", () => {
  const hotend = new Heater(HOTEND, new Pid(), 25, 1);
  hotend.target = 200;
  hotend.advance(200);
  hotend.target = 0;
  const temps = [hotend.temperature];
  for (let i = 0; i < 10; i++) {
    hotend.advance(300);
    temps.push(hotend.temperature);
  }
  assert.ok(temps[0]! > 190, `hot first: ${temps[0]}`);
  assert.ok(temps.every((t, i) => i === 0 || t < temps[i - 1]!), `falls: ${temps}`);
  assert.ok(temps.at(-1)! >= 25 && temps.at(-1)! < 26, `ends near ambient: ${temps.at(-1)}`);
  assert.equal(hotend.power, 0);
});

Deno.test("the chamber is slow: after five minutes it is not halfway to 40 °C", () => {
  const chamber = new Heater(CHAMBER, new BangBang(), 20, 4);
  chamber.target = 40;
  const readings = run(chamber, 300);
  assert.ok(readings.at(-1)! > 21 && readings.at(-1)! < 30, `after 300 s: ${readings.at(-1)}`);
});

Deno.test("thermistor noise is seeded: the same seed reads the same, another seed differs", () => {
  const readings = (seed: number) => {
    const heater = new Heater(HOTEND, new Pid(), 20, seed);
    return run(heater, 50);
  };
  assert.deepEqual(readings(7), readings(7));
  assert.notDeepEqual(readings(7), readings(8));
  const still = readings(9);
  const mean = still.reduce((a, b) => a + b) / still.length;
  const sd = Math.sqrt(still.reduce((a, b) => a + (b - mean) ** 2, 0) / still.length);
  assert.ok(Math.abs(mean - 20) < 0.1 && sd > 0.05 && sd < 0.3, `mean ${mean}, sd ${sd}`);
});

Deno.test("seededRandom gives numbers in [0, 1), the same sequence for the same seed", () => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const values = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(values.slice(0, 5), Array.from({ length: 5 }, () => b()));
  assert.ok(values.every((v) => v >= 0 && v < 1));
  assert.ok(Math.abs(values.reduce((x, y) => x + y) / 1000 - 0.5) < 0.05);
});
