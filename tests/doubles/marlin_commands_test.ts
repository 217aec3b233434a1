import assert from "node:assert/strict";
import { ManualClock } from "../_fake_clock.ts";
import { board, TEMPS } from "./_marlin_board.ts";
import { MarlinFirmware } from "./marlin_firmware.ts";
import { BangBang, BED, Heater, HOTEND, Pid } from "./marlin_physics.ts";

Deno.test("M115 names Marlin 2.1.2 with one extruder and reports capabilities as configured", () => {
  const b = board();
  b.fw.receive("M115\n");
  const out = b.take();
  assert.match(out[0]!, /^FIRMWARE_NAME:Marlin 2\.1\.2 .*PROTOCOL_VERSION:1\.0 .*EXTRUDER_COUNT:1/);
  for (
    const cap of ["AUTOREPORT_TEMP:1", "EMERGENCY_PARSER:1", "SDCARD:1", "CHAMBER_TEMPERATURE:1"]
  ) {
    assert.ok(out.includes(`Cap:${cap}`), cap);
  }
  assert.ok(out.slice(1, -1).every((line) => /^Cap:[A-Z_]+:[01]$/.test(line)));
  assert.equal(out.at(-1), "ok");
  b.fw.close();
  const bare = board({
    capabilities: { AUTOREPORT_TEMP: false, EMERGENCY_PARSER: false },
    sd: null,
  });
  bare.fw.receive("M115\n");
  const caps = bare.take();
  for (const cap of ["AUTOREPORT_TEMP:0", "EMERGENCY_PARSER:0", "SDCARD:0"]) {
    assert.ok(caps.includes(`Cap:${cap}`));
  }
  bare.fw.receive("M155 S2\nM20\n");
  assert.deepEqual(bare.take(), [
    'echo:Unknown command: "M155 S2"',
    "ok",
    'echo:Unknown command: "M20"',
    "ok",
  ]);
  bare.fw.close();
});

Deno.test("M105 answers ok with temperatures; M155 S2 reports them every 2 s until M155 S0", () => {
  const b = board();
  b.fw.receive("M105\n");
  const [m105] = b.take();
  assert.match(
    m105!,
    /^ok T:\d+\.\d\d \/0\.00 B:\d+\.\d\d \/0\.00 C:\d+\.\d\d \/0\.00 @:0 B@:0 C@:0$/,
  );
  b.fw.receive("M155 S2\n");
  assert.deepEqual(b.take(), ["ok"]);
  b.clock.advance(1900);
  assert.deepEqual(b.take(), []);
  b.clock.advance(4100);
  const reports = b.take();
  assert.equal(reports.length, 3);
  assert.ok(reports.every((line) => TEMPS.test(line)), reports.join("\n"));
  b.fw.receive("M155 S0\n");
  b.clock.advance(10_000);
  assert.deepEqual(b.take(), ["ok"]);
  b.fw.close();
});

Deno.test("M109 holds the queue with temperature lines and busy, then answers ok once settled", () => {
  const b = board();
  b.send(0, "M110 N0", "M109 S200", "G1 X1");
  b.clock.advance(20_000);
  const early = b.take();
  assert.equal(early[0], "ok", "M110 only");
  assert.ok(!early.slice(1).includes("ok"), "nothing else answered while heating");
  assert.equal(early.filter((l) => l === "echo:busy: processing").length, 10);
  const temps = early.filter((l) => l.endsWith(" W:?"));
  assert.ok(temps.length >= 20 && temps.every((l) => TEMPS.test(l.slice(0, -4))), temps.join("\n"));
  assert.match(temps.at(-1)!, / T:\d+\.\d\d \/200\.00 /);
  let out: string[] = [];
  for (let s = 0; s < 400 && !out.includes("ok"); s++) {
    b.clock.advance(1000);
    out = out.concat(b.take());
  }
  const done = out.indexOf("ok");
  assert.ok(done > 0, "M109 ends");
  assert.match(out[done - 1]!, / W:0$/);
  assert.ok(Math.abs(b.heaters.hotend.reading - 200) < 3, `${b.heaters.hotend.reading}`);
  assert.deepEqual(out.slice(done), ["ok", "ok"], "then the queued G1");
  b.fw.close();
});

Deno.test("M108 (emergency parser) ends a heat wait at once; M109 S does not wait to cool", () => {
  const b = board();
  b.fw.receive("M190 S90\n");
  b.clock.advance(3000);
  b.take();
  b.fw.receive("M108\n");
  b.clock.advance(100);
  assert.deepEqual(b.take().filter((l) => !l.startsWith(" T:")), ["ok", "ok"]);
  assert.equal(b.heaters.bed.target, 90, "M108 ends the wait, not the heating");
  b.heaters.hotend.target = 0;
  b.fw.receive("M109 S0\n");
  assert.deepEqual(b.take(), ["ok"]);
  b.fw.close();
});

Deno.test("M190 R waits for the bed to cool down to its target too", () => {
  const b = board();
  b.fw.receive("M140 S80\n");
  b.clock.advance(600_000);
  b.take();
  b.fw.receive("M190 R50\n");
  b.clock.advance(10_000);
  assert.ok(!b.take().includes("ok"));
  let out: string[] = [];
  for (let s = 0; s < 3000 && !out.includes("ok"); s += 10) {
    b.clock.advance(10_000);
    out = out.concat(b.take());
  }
  assert.ok(out.includes("ok"));
  assert.ok(Math.abs(b.heaters.bed.reading - 50) < 3);
  b.fw.close();
});

Deno.test("M104, M140 and M141 set targets at once; M141 is unknown without a chamber", () => {
  const b = board();
  b.fw.receive("M104 S210\nM140 S60\nM141 S35\n");
  assert.deepEqual(b.take(), ["ok", "ok", "ok"]);
  assert.deepEqual([b.heaters.hotend.target, b.heaters.bed.target, b.heaters.chamber!.target], [
    210,
    60,
    35,
  ]);
  b.fw.close();
  const clock = new ManualClock(0);
  const out: string[] = [];
  const hotend = new Heater(HOTEND, new Pid(), 20, 1);
  const fw = new MarlinFirmware({
    clock,
    heaters: { hotend, bed: new Heater(BED, new BangBang(), 20, 2), chamber: null },
    send: (line) => out.push(line),
    sd: null,
  });
  fw.receive("M141 S35\nM105\nM115\n");
  assert.deepEqual(out.slice(0, 2), ['echo:Unknown command: "M141 S35"', "ok"]);
  assert.doesNotMatch(out[2]!, / C:/);
  assert.ok(out.includes("Cap:CHAMBER_TEMPERATURE:0"));
  fw.close();
});

Deno.test("G28 answers busy while homing, then ok; an unknown command is echoed, then ok", () => {
  const b = board({ homingSeconds: 5 });
  b.fw.receive("G28\nM4242 X\n");
  b.clock.advance(4900);
  assert.deepEqual(b.take(), [
    "echo:busy: processing",
    "echo:busy: processing",
    "echo:busy: processing",
  ]);
  b.clock.advance(200);
  assert.deepEqual(b.take(), ["ok", 'echo:Unknown command: "M4242 X"', "ok"]);
  b.fw.close();
});

Deno.test("SD commands select, start and report a print through M27", () => {
  const b = board();
  b.fw.receive("M21\nM23 cube.gco\nM24\n");
  assert.deepEqual(b.take(), [
    "echo:SD card ok",
    "ok",
    "File opened: CUBE.GCO Size: 600",
    "File selected",
    "ok",
    "ok",
  ]);
  b.clock.advance(3000);
  b.fw.receive("M27\n");
  assert.deepEqual(b.take(), ["SD printing byte 300/600", "ok"]);
  b.fw.receive("M27 S1\n");
  b.clock.advance(3000);
  assert.deepEqual(
    b.take(),
    ["SD printing byte 300/600", "ok", "Done printing file"],
    "without Cap:AUTOREPORT_SD_STATUS, M27 S1 reports once and does not repeat",
  );
  b.fw.close();
});
