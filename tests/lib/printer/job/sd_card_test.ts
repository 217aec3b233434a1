import assert from "node:assert/strict";
import type { JobStatus } from "../../../../lib/printer/printer.ts";
import { SdCardJob } from "../../../../lib/printer/job/sd_card.ts";
import { ManualClock } from "../../../_fake_clock.ts";
import { FakeDriver } from "./_fake_driver.ts";

/** An SD card watcher on a fake driver whose firmware has the given capabilities. */
function setUp(capabilities: Record<string, boolean>) {
  const clock = new ManualClock();
  const driver = new FakeDriver();
  const sd = new SdCardJob(driver, { clock, intervalSeconds: 5 });
  const changes: (JobStatus | null)[] = [];
  sd.subscribe((job) => changes.push(job));
  sd.start();
  const firmware = { name: "Marlin", fields: {}, capabilities };
  driver.firmware = firmware;
  driver.emit({ type: "firmware", firmware });
  const report = (byte: number | null, total: number | null) =>
    driver.emit({ type: "sd", printing: byte !== null, byte, total });
  const heard = (text: string) => driver.emit({ type: "line", direction: "received", text });
  return { clock, driver, sd, changes, report, heard };
}

Deno.test("an SD print started from the terminal is polled with M27 and shown as a job", async () => {
  const { clock, driver, sd, changes, report, heard } = setUp({ SDCARD: true });
  assert.deepEqual(driver.sent, ["M27"], "a print already running would show up");
  report(null, null);
  assert.equal(sd.status(), null);
  await driver.send("M23 benchy.gco");
  heard("File opened: benchy.gco Size: 10000");
  await driver.send("M24");
  report(0, 10000);
  clock.advance(20_000);
  report(2500, 10000);
  assert.deepEqual(sd.status(), {
    state: "PRINTING",
    file: { name: "benchy.gco", size: 10000, origin: "sdcard" },
    progress: { completion: 25, filepos: 2500, lines: null, printTime: 20, printTimeLeft: 60 },
  });
  assert.deepEqual(
    driver.sent.filter((c) => c === "M27").length,
    1 + 1 + 4,
    "M24's, then every 5 s",
  );
  await driver.send("M25");
  report(null, null); // Marlin: "Not SD printing" while paused
  assert.equal(sd.status()?.state, "PAUSED");
  await driver.send("M24");
  assert.equal(sd.status()?.state, "PRINTING");
  heard("Done printing file");
  assert.equal(sd.status(), null);
  const polls = driver.sent.length;
  clock.advance(60_000);
  assert.equal(driver.sent.length, polls, "no polls once it is done");
  assert.equal(changes.at(-1), null);
});

Deno.test("an SD print found by M27 is auto-reported where the firmware can, and ends with M27 S0", () => {
  const { clock, driver, sd, report } = setUp({ SDCARD: true, AUTOREPORT_SD_STATUS: true });
  report(100, 1000);
  assert.deepEqual(sd.status()?.file, { name: "", size: 1000, origin: "sdcard" });
  assert.deepEqual(driver.sent, ["M27", "M27 S5"]);
  clock.advance(60_000);
  assert.deepEqual(driver.sent, ["M27", "M27 S5"], "no polls: the firmware reports");
  report(null, null);
  assert.equal(sd.status(), null);
  assert.deepEqual(driver.sent, ["M27", "M27 S5", "M27 S0"]);
});

Deno.test("without an SD card nothing is polled, and a printer gone ends the SD job", () => {
  const { clock, driver, sd, report } = setUp({});
  assert.deepEqual(driver.sent, []);
  report(10, 100);
  assert.equal(sd.status()?.state, "PRINTING", "a report is shown all the same");
  clock.advance(60_000);
  assert.deepEqual(driver.sent, []);
  driver.setState("closed", "unplugged");
  assert.equal(sd.status(), null);
  sd.stop();
  assert.equal(driver.listenerCount, 0);
});
