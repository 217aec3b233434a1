import assert from "node:assert/strict";
import type { DriverEvent } from "../../../../lib/printer/driver.ts";
import { AMBIENT_C } from "../../../../lib/printer/virtual/thermal.ts";
import { VirtualDriver } from "../../../../lib/printer/virtual/virtual_driver.ts";
import { ManualClock } from "../../../_fake_clock.ts";

async function connected(speed = 1) {
  const clock = new ManualClock();
  const driver = new VirtualDriver({ clock, speed });
  const events: DriverEvent[] = [];
  driver.subscribe((e) => events.push(e));
  await driver.connect();
  return { clock, driver, events };
}

Deno.test("VirtualDriver reports temperatures every simulated second on its sped-up clock", async () => {
  const { clock, driver, events } = await connected(10);
  assert.equal(events.filter((e) => e.type === "temperatures").length, 1, "one report at connect");
  events.length = 0;
  await driver.send("M140 S60");
  clock.advance(1000);
  const temps = events.flatMap((e) => e.type === "temperatures" ? [e] : []);
  assert.equal(temps.length, 10);
  assert.equal(temps.at(-1)!.time - temps[0]!.time, 9000);
  assert.ok(temps.at(-1)!.temperatures.bed!.actual > AMBIENT_C);
  assert.equal(temps.at(-1)!.temperatures.bed!.target, 60);
  await driver.close();
  assert.equal(clock.timerCount, 0);
});

Deno.test("VirtualDriver answers M105, M115 and an unknown command as a small Marlin", async () => {
  const { driver, events } = await connected();
  assert.match((await driver.send("M105"))[0]!, /^ok T:22\.00 \/0 B:22\.00 \/0 C:22\.00 \/0$/);
  const m115 = await driver.send("M115");
  assert.match(m115[0]!, /^FIRMWARE_NAME:localbench virtual printer/);
  assert.ok(m115.includes("Cap:AUTOREPORT_TEMP:1"));
  assert.deepEqual(await driver.send("M999x"), ['echo:Unknown command: "M999x"', "ok"]);
  assert.ok(events.some((e) => e.type === "line" && e.direction === "sent" && e.text === "M105"));
  await driver.close();
});

Deno.test("VirtualDriver's M109 waits until the heater is there, and a move takes simulated time", async () => {
  const { clock, driver } = await connected();
  let heated = false;
  const heating = driver.send("M109 S200").then(() => heated = true);
  clock.advance(60_000);
  await Promise.resolve();
  assert.equal(heated, false, "not there after a minute (tau 40 s)");
  clock.advance(240_000);
  await heating;
  let moved = false;
  const move = driver.send("G1 X10 F3000").then(() => moved = true);
  await Promise.resolve();
  assert.equal(moved, false);
  clock.advance(100);
  await move;
  await driver.close();
});

Deno.test("VirtualDriver refuses commands once closed, and one failing listener stops no other", async () => {
  const { clock, driver } = await connected();
  let got = 0;
  driver.subscribe(() => {
    throw new Error("bad");
  });
  driver.subscribe(() => got++);
  clock.advance(2000);
  assert.ok(got >= 2);
  const waiting = driver.send("M190 S100");
  await driver.close();
  await assert.rejects(waiting, /off/);
  await assert.rejects(driver.send("M105"), /off/);
});
