import assert from "node:assert/strict";
import {
  AMBIENT_C,
  HEATERS,
  stepHeater,
  timeToReach,
  VirtualPrinter,
} from "../../../lib/host/mod.ts";
import type { PrinterEvent } from "../../../lib/host/plugin.ts";
import { FakeClock, json, startTestHost } from "./_helpers.ts";

Deno.test("stepHeater() follows the exact first-order curve toward the target", () => {
  const p = { tau: 50, maxTemp: 300 };
  const after = stepHeater({ actual: 20, target: 220 }, 50, p);
  assert.ok(Math.abs(after.actual - (20 + 200 * (1 - Math.exp(-1)))) < 1e-9);
  const split = stepHeater(stepHeater({ actual: 20, target: 220 }, 25, p), 25, p);
  assert.ok(Math.abs(split.actual - after.actual) < 1e-9, "steps compose");
});

Deno.test("stepHeater() cools toward ambient when off and clamps the target to the maximum", () => {
  const cool = stepHeater({ actual: 200, target: 0 }, 1e6, HEATERS.tool0!);
  assert.ok(Math.abs(cool.actual - AMBIENT_C) < 1e-6);
  const hot = stepHeater({ actual: 20, target: 500 }, 1e6, { tau: 10, maxTemp: 100 });
  assert.ok(Math.abs(hot.actual - 100) < 1e-6);
  assert.equal(stepHeater({ actual: 30, target: 60 }, -5, HEATERS.bed!).actual, 30);
});

Deno.test("timeToReach() matches the model and reports unreachable targets", () => {
  const p = { tau: 40, maxTemp: 300 };
  const t = timeToReach(22, 200, p, 0.5);
  const at = stepHeater({ actual: 22, target: 200 }, t, p).actual;
  assert.ok(Math.abs(200 - at - 0.5) < 1e-6);
  assert.equal(timeToReach(22, 400, p), Infinity);
  assert.equal(timeToReach(200, 200, p), 0);
});

Deno.test("VirtualPrinter emits temperatures every simulated second on its sped-up clock", () => {
  const clock = new FakeClock();
  const printer = new VirtualPrinter({ clock, speed: 10 });
  const events: PrinterEvent[] = [];
  printer.subscribe((e) => events.push(e));
  printer.setTarget("bed", 60);
  printer.start();
  clock.advance(1000);
  printer.stop();
  const temps = events.filter((e) => e.type === "temperatures");
  assert.equal(temps.length, 10);
  const last = temps.at(-1)!;
  assert.equal(last.type === "temperatures" && last.snapshot.time - temps[0]!.snapshot.time, 9000);
  assert.ok(printer.snapshot().temperatures.bed!.actual > AMBIENT_C);
  assert.equal(clock.timerCount, 0);
});

Deno.test("VirtualPrinter job commands move through the print-host states", () => {
  const printer = new VirtualPrinter({ clock: new FakeClock(), jobSeconds: 5 });
  const states: string[] = [];
  printer.subscribe((e) => e.type === "state" && states.push(e.state));
  printer.job("start");
  printer.job("pause", "pause");
  assert.throws(() => printer.job("start"), /not operational/);
  printer.job("pause", "resume");
  printer.tick(5);
  assert.deepEqual(states, ["PRINTING", "PAUSED", "PRINTING", "FINISHING", "OPERATIONAL"]);
  printer.job("start");
  printer.job("cancel");
  assert.equal(printer.snapshot().state, "OPERATIONAL");
  assert.throws(() => printer.job("cancel"), /neither printing nor paused/);
  assert.throws(() => printer.job("fly"), /Unknown job command/);
});

Deno.test("one failing printer subscriber does not stop the others", () => {
  const printer = new VirtualPrinter({ clock: new FakeClock() });
  let got = 0;
  printer.subscribe(() => {
    throw new Error("bad");
  });
  printer.subscribe(() => got++);
  printer.tick(2);
  assert.equal(got, 2);
});

Deno.test("printer endpoints set targets, run jobs and validate input", async () => {
  const clock = new FakeClock();
  const t = await startTestHost({ clock });
  try {
    const ok = [
      ["/api/printer/tool", { command: "target", targets: { tool0: 210 } }],
      ["/api/printer/bed", { command: "target", target: 60 }],
      ["/api/printer/chamber", { command: "target", target: 40 }],
      ["/api/job", { command: "start" }],
    ] as const;
    for (const [path, body] of ok) {
      const res = await t.request(path, { ...json("POST", body), key: t.keys.CONTROL });
      assert.equal(res.status, 204, path);
    }
    clock.advance(5000);
    const state = await (await t.request("/api/printer", { key: t.keys.STATUS })).json();
    assert.equal(state.temperature.tool0.target, 210);
    assert.equal(state.temperature.bed.target, 60);
    assert.ok(state.temperature.tool0.actual > 22);
    assert.equal(state.state.text, "Printing");
    assert.equal(state.state.flags.printing, true);
    const job = await (await t.request("/api/job", { key: t.keys.STATUS })).json();
    assert.equal(job.progress.printTime, 5);
    const bad = [
      ["/api/printer/tool", { command: "target", targets: { tool9: 100 } }, 400],
      ["/api/printer/tool", { command: "target", targets: { bed: 100 } }, 400],
      ["/api/printer/bed", { command: "target", target: 999 }, 400],
      ["/api/printer/bed", { command: "offset", target: 1 }, 400],
      ["/api/printer/chamber", { command: "target", target: "hot" }, 400],
      ["/api/job", { command: "start" }, 409],
      ["/api/job", {}, 400],
    ] as const;
    for (const [path, body, status] of bad) {
      const res = await t.request(path, json("POST", body));
      assert.equal(res.status, status, `${path} ${JSON.stringify(body)}`);
    }
  } finally {
    await t.close();
  }
});
