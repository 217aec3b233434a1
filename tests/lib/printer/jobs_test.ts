import assert from "node:assert/strict";
import { ConflictError } from "../../../lib/error.ts";
import { type JobsListener, PrinterJobs } from "../../../lib/printer/jobs.ts";
import { ManualClock } from "../../_fake_clock.ts";
import { FakeDriver } from "./job/_fake_driver.ts";

/** Jobs over a temporary uploads folder holding `part.gcode`. */
async function setUp() {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/part.gcode`, "G28\nG1 X1\n");
  const jobs = new PrinterJobs({ clock: new ManualClock(), uploadsDir: dir });
  const seen: string[] = [];
  const listener: JobsListener = {
    progress: (job) => seen.push(`progress ${job.state}`),
    changed: () => seen.push("changed"),
    state: (state) => seen.push(`state ${state}`),
  };
  return {
    dir,
    jobs,
    seen,
    listener,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("PrinterJobs show the selected file while no connection is attached, in the printer's state", async () => {
  await using s = await setUp();
  assert.deepEqual(s.jobs.status("OFFLINE").file, null);
  await s.jobs.select("part.gcode");
  const job = s.jobs.status("OFFLINE");
  assert.equal(job.state, "OFFLINE");
  assert.equal(job.file?.name, "part.gcode");
  await s.jobs.select(null);
  assert.equal(s.jobs.status("OFFLINE").file, null);
});

Deno.test("PrinterJobs select the chosen file again on a new connection's runner", async () => {
  await using s = await setUp();
  await s.jobs.select("part.gcode");
  const stops = await s.jobs.attach(new FakeDriver(), () => true, s.listener);
  assert.equal(stops?.length, 2);
  assert.equal(s.jobs.runner?.status().file?.name, "part.gcode");
  assert.equal(s.jobs.status("OPERATIONAL").state, "OPERATIONAL");
  assert.equal(s.jobs.status("ERROR").state, "ERROR", "a halted printer prints nothing");
  for (const stop of stops!) stop();
  s.jobs.detach(false);
});

Deno.test("PrinterJobs attach nothing when the connection was replaced meanwhile", async () => {
  await using s = await setUp();
  assert.equal(await s.jobs.attach(new FakeDriver(), () => false, s.listener), null);
  assert.equal(s.jobs.runner, null);
  assert.throws(
    () => s.jobs.runnerFor("pause"),
    (e) => e instanceof ConflictError && /still connecting/.test(e.message),
  );
});

Deno.test("PrinterJobs keep a print a lost line cut short until the next selection", async () => {
  await using s = await setUp();
  const driver = new FakeDriver();
  let release = () => {};
  driver.onSend = (command) =>
    command.startsWith("G1") ? new Promise((r) => release = () => r(["ok"])) : undefined;
  const stops = await s.jobs.attach(driver, () => true, s.listener);
  await s.jobs.select("part.gcode");
  const started = s.jobs.runnerFor("start").start();
  await started;
  for (let i = 0; i < 20 && !driver.sent.some((c) => c.startsWith("G1")); i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.ok(s.jobs.runner?.active, "the print is under way");
  for (const stop of stops!) stop();
  const cut = s.jobs.detach(true);
  release();
  assert.equal(cut?.file?.name, "part.gcode");
  const shown = s.jobs.status("OFFLINE");
  assert.equal(shown.state, "OFFLINE");
  assert.equal(shown.file?.name, "part.gcode");
  assert.equal(shown.progress.printTimeLeft, null);
  assert.ok(s.seen.includes("state PRINTING"), s.seen.join(", "));
  await s.jobs.select(null);
  assert.equal(s.jobs.status("OFFLINE").file, null, "a selection forgets the cut print");
});
