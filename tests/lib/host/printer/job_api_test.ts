import assert from "node:assert/strict";
import { FakeClock, json, startTestHost } from "../_helpers.ts";
import { JobPrinter } from "./_job_printer.ts";

/** A host whose job printer holds every line until the test lets it through. */
async function setUp() {
  const clock = new FakeClock();
  const printer = new JobPrinter(clock);
  const t = await startTestHost({ clock, printer });
  printer.uploads = t.host.uploads;
  const held: (() => void)[] = [];
  let free = false;
  printer.driver.onSend = () => {
    clock.advance(1000);
    if (free) return;
    return new Promise<string[]>((resolve) => held.push(() => resolve(["ok"])));
  };
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setTimeout(r, 1));
  };
  const still = () => held.length > 0 || ["OPERATIONAL", "PAUSED"].includes(printer.runner.state);
  /** Lets `n` lines through, then waits until the next is in flight or the job stands still. */
  const step = async (n = 1) => {
    for (let i = 0; i < n; i++) {
      await until(() => held.length > 0);
      held.shift()?.();
    }
    await until(still);
  };
  /** Waits until a line is in flight. */
  const inFlight = () => until(() => held.length > 0);
  /** Lets every line through from now on. */
  const release = () => {
    free = true;
    for (const line of held.splice(0)) line();
  };
  const job = async () => await (await t.request("/api/job", { key: t.keys.STATUS })).json();
  const command = (body: unknown) => t.request("/api/job", json("POST", body));
  return Object.assign(t, {
    printer,
    step,
    inFlight,
    release,
    job,
    command,
    [Symbol.asyncDispose]: () => t.close(),
  });
}

/** Stores a file of `n` moves in the host's uploads folder. */
async function store(uploads: { store(n: string, d: ReadableStream): Promise<unknown> }, n = 10) {
  const text = Array.from({ length: n }, (_, i) => `G1 X${i}\n`).join("");
  await uploads.store("part.gcode", ReadableStream.from([new TextEncoder().encode(text)]));
  return text.length;
}

Deno.test("GET /api/job shows no file before one is selected", async () => {
  await using t = await setUp();
  assert.deepEqual(await t.job(), {
    job: {
      file: { name: null, path: null, size: null, origin: null },
      estimatedPrintTime: null,
    },
    progress: {
      completion: null,
      filepos: null,
      lines: null,
      printTime: null,
      printTimeLeft: null,
    },
    state: "Operational",
  });
});

Deno.test("a job starts, pauses, resumes and shows its progress by bytes and lines", async () => {
  await using t = await setUp();
  const size = await store(t.host.uploads);
  await t.printer.selectJob("part.gcode");
  assert.equal((await t.command({ command: "start" })).status, 204);
  await t.step(5);
  const printing = await t.job();
  assert.equal(printing.state, "Printing");
  assert.deepEqual(printing.job.file, {
    name: "part.gcode",
    path: "part.gcode",
    size,
    origin: "local",
  });
  assert.deepEqual(printing.progress, {
    completion: 50,
    filepos: size / 2,
    lines: 5,
    printTime: 6, // the sixth line is in flight
    printTimeLeft: 6,
  });
  assert.equal(printing.job.estimatedPrintTime, 12);
  assert.equal((await t.command({ command: "pause", action: "pause" })).status, 204);
  assert.equal((await t.job()).state, "Pausing");
  await t.step();
  assert.equal((await t.job()).state, "Paused");
  assert.equal((await t.command({ command: "pause", action: "pause" })).status, 204, "no-op");
  assert.equal((await t.command({ command: "pause" })).status, 204, "toggle resumes");
  assert.equal((await t.job()).state, "Printing");
  await t.step(2);
  assert.equal((await t.command({ command: "pause", action: "toggle" })).status, 204);
  await t.step();
  assert.equal((await t.command({ command: "pause", action: "resume" })).status, 204);
  t.release();
  await t.printer.runner.settled();
  const done = await t.job();
  assert.equal(done.state, "Operational");
  assert.deepEqual([done.progress.completion, done.progress.lines], [100, 10]);
});

Deno.test("cancel stops the job and sends the cancel script; restart begins again", async () => {
  await using t = await setUp();
  await store(t.host.uploads);
  await t.printer.selectJob("part.gcode");
  await t.command({ command: "start" });
  await t.step(3);
  await t.command({ command: "pause", action: "pause" });
  await t.step();
  assert.equal((await t.command({ command: "restart" })).status, 204);
  await t.inFlight();
  assert.deepEqual(t.printer.driver.sent.slice(3), ["G1 X3", "G1 X0"]);
  assert.equal((await t.command({ command: "cancel" })).status, 204);
  assert.equal((await t.job()).state, "Cancelling");
  t.release();
  await t.printer.runner.settled();
  assert.deepEqual(t.printer.driver.sent.slice(5), ["M104 S0", "M140 S0", "M107", "M84"]);
  assert.equal((await t.job()).state, "Operational");
});

Deno.test("job commands the state does not allow are a 409 that says why", async () => {
  await using t = await setUp();
  const refused = async (body: unknown, pattern: RegExp) => {
    const res = await t.command(body);
    assert.equal(res.status, 409, JSON.stringify(body));
    assert.match((await res.json()).error, pattern);
  };
  await refused({ command: "start" }, /no file is selected/);
  await refused({ command: "cancel" }, /no print is under way/);
  await refused({ command: "pause", action: "pause" }, /no print is under way/);
  await refused({ command: "pause", action: "toggle" }, /the printer is Operational/);
  await refused({ command: "restart" }, /no print is under way/);
  await store(t.host.uploads);
  await t.printer.selectJob("part.gcode");
  await t.command({ command: "start" });
  await refused({ command: "start" }, /the printer is Printing/);
  await refused({ command: "restart" }, /it is printing/);
  await t.command({ command: "cancel" });
  t.release();
  await t.printer.runner.settled();
  t.printer.online = false;
  await refused({ command: "start" }, /the printer is Offline/);
});

Deno.test("POST /api/job checks its input and needs CONTROL", async () => {
  await using t = await setUp();
  for (const body of [{}, { command: "fly" }, { command: "pause", action: "stop" }]) {
    assert.equal((await t.command(body)).status, 400, JSON.stringify(body));
  }
  const res = await t.request("/api/job", {
    ...json("POST", { command: "start" }),
    key: t.keys.STATUS,
  });
  assert.equal(res.status, 403);
  assert.equal((await t.request("/api/job", { key: null })).status, 401);
});
