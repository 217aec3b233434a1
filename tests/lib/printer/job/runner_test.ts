import assert from "node:assert/strict";
import { ConflictError, NotFoundError } from "../../../../lib/error.ts";
import {
  DEFAULT_JOB_SCRIPTS,
  type JobEvent,
  type JobFile,
  JobRunner,
  type JobRunnerOptions,
} from "../../../../lib/printer/job/mod.ts";
import { PrinterHaltedError } from "../../../../lib/printer/marlin/mod.ts";
import type { PrinterState } from "../../../../lib/printer/printer.ts";
import { ManualClock } from "../../../_fake_clock.ts";
import { FakeDriver } from "./_fake_driver.ts";

const encoder = new TextEncoder();

/** A G-code file of `n` moves with comments and blank lines between them. */
function gcode(n: number): { text: string; commands: string[]; ends: number[] } {
  let text = "; generated for a test\n";
  const commands: string[] = [];
  const ends: number[] = [];
  for (let i = 1; i <= n; i++) {
    const command = `G1 X${i} Y${i % 7} E${(i / 10).toFixed(1)}`;
    text += i % 10 === 0 ? `\n; layer ${i / 10}\n${command} ; move\r\n` : `${command}\n`;
    commands.push(command);
    ends.push(encoder.encode(text).length);
  }
  return { text: text + "; end\n", commands, ends };
}

/** A job file over `text`; `opened` counts opens, `cancelled` the streams cancelled early. */
function fileOf(text: string, name = "part.gcode") {
  const bytes = encoder.encode(text);
  const counts = { opened: 0, cancelled: 0 };
  const file: JobFile = {
    name,
    size: bytes.length,
    open: () => {
      counts.opened++;
      let sent = false;
      const readable = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent) return c.close();
          // Three chunks that cut lines (and a CRLF) in two.
          c.enqueue(bytes.subarray(0, 100));
          c.enqueue(bytes.subarray(100, 1001));
          c.enqueue(bytes.subarray(1001));
          sent = true;
        },
        cancel: () => void counts.cancelled++,
      });
      return Promise.resolve({ size: bytes.length, readable });
    },
  };
  return { file, counts, size: bytes.length };
}

function setUp(options: JobRunnerOptions = {}) {
  const clock = new ManualClock();
  const driver = new FakeDriver();
  const runner = new JobRunner(driver, { clock, ...options });
  const events: JobEvent[] = [];
  runner.subscribe((e) => events.push(e));
  const states = () => events.flatMap((e) => e.type === "state" ? [e.state] : []);
  /** Resolves at the next change to `state`. */
  const reach = (state: PrinterState) =>
    new Promise<void>((resolve) => {
      const off = runner.subscribe((e) => {
        if (e.type === "state" && e.state === state) off(), resolve();
      });
    });
  return { clock, driver, runner, events, states, reach };
}

Deno.test("a 200-line file prints to the end with progress by bytes and lines", async () => {
  const { clock, driver, runner, events, states } = setUp();
  const { text, commands, ends } = gcode(200);
  const { file, counts, size } = fileOf(text);
  const seen: { lines: number | null; filepos: number | null; left: number | null }[] = [];
  driver.onSend = (_command, index) => {
    clock.advance(100);
    if (index === 99) {
      const p = runner.status().progress;
      seen.push({ lines: p.lines, filepos: p.filepos, left: p.printTimeLeft });
    }
  };
  runner.select(file);
  assert.deepEqual(runner.status(), {
    state: "OPERATIONAL",
    file: { name: "part.gcode", size, origin: "local" },
    progress: {
      completion: null,
      filepos: null,
      lines: null,
      printTime: null,
      printTimeLeft: null,
    },
  });
  await runner.start();
  assert.equal(runner.state, "PRINTING");
  await runner.settled();
  assert.deepEqual(driver.sent, commands, "commands only: comments and blank lines stripped");
  assert.deepEqual(seen, [{
    lines: 99,
    filepos: ends[98],
    left: Math.round(9.9 * (size - ends[98]!) / ends[98]!),
  }]);
  assert.deepEqual(runner.status(), {
    state: "OPERATIONAL",
    file: { name: "part.gcode", size, origin: "local" },
    progress: { completion: 100, filepos: size, lines: 200, printTime: 20, printTimeLeft: 0 },
  });
  assert.deepEqual(states(), ["PRINTING", "FINISHING", "OPERATIONAL"]);
  const progress = events.flatMap((e) => e.type === "progress" ? [e.job.progress] : []);
  assert.ok(progress.length >= 90 && progress.length <= 202, `${progress.length} reports`);
  assert.equal(progress.at(-1)!.completion, 100);
  const percents = progress.map((p) => Math.floor(p.completion!));
  assert.deepEqual(percents, [...percents].sort((a, b) => a - b), "progress only moves on");
  assert.equal(counts.opened, 1);
  assert.equal(driver.listenerCount, 0, "the runner stops listening to the driver");
});

Deno.test("progress events come per whole percent or per second, not per line", async () => {
  const { clock, driver, runner, events } = setUp({ progressIntervalMs: 1000 });
  const { file } = fileOf("G1 X1\n".repeat(1000)); // 0.1 % a line
  driver.onSend = () => clock.advance(10);
  runner.select(file);
  await runner.start();
  await runner.settled();
  const reports = events.filter((e) => e.type === "progress").length;
  // 101 percents (0..100) and one per second of the 10 s print at most.
  assert.ok(reports >= 100 && reports <= 112, `${reports} reports for 1000 lines`);
});

Deno.test("pause stops after the line in flight, sends the pause script, and resume goes on", async () => {
  const scripts = { pause: ["G91", "G1 Z5", "G90"], resume: ["G1 Z-5 ; back down"] };
  const { clock, driver, runner, states, reach } = setUp({ scripts });
  const { text, commands } = gcode(200);
  const { file } = fileOf(text);
  driver.onSend = (_command, index) => {
    clock.advance(100);
    if (index === 49) {
      runner.pause();
      assert.equal(runner.state, "PAUSING");
      runner.pause(); // already pausing: nothing
    }
  };
  const paused = reach("PAUSED");
  runner.select(file);
  await runner.start();
  await paused;
  assert.deepEqual(driver.sent.slice(48), [commands[48], commands[49], ...scripts.pause]);
  assert.equal(runner.status().progress.lines, 50);
  const printTime = runner.status().progress.printTime;
  clock.advance(60_000);
  assert.equal(runner.status().progress.printTime, printTime, "a pause does not count");
  runner.pause(); // paused already: nothing
  await assert.rejects(() => runner.start(), ConflictError);
  assert.throws(() => runner.select(null), ConflictError);
  runner.resume();
  await runner.settled();
  assert.deepEqual(driver.sent.slice(50, 55), [
    ...scripts.pause,
    "G1 Z-5 ; back down",
    commands[50],
  ]);
  assert.equal(driver.sent.length, 200 + 4);
  assert.deepEqual(states(), [
    "PRINTING",
    "PAUSING",
    "PAUSED",
    "RESUMING",
    "PRINTING",
    "FINISHING",
    "OPERATIONAL",
  ]);
  // 200 lines of 0.1 s; the pause script's 0.3 s counts but rounds off, the minute paused not.
  assert.equal(runner.status().progress.printTime, 20);
});

Deno.test("resume, pause and cancel say why they cannot act, and repeat harmlessly", async () => {
  const { driver, runner, reach } = setUp();
  assert.throws(
    () => runner.pause(),
    (e) => e instanceof ConflictError && /no print/.test(e.message),
  );
  assert.throws(() => runner.resume(), ConflictError);
  assert.throws(() => runner.cancel(), ConflictError);
  assert.throws(() => runner.restart(), ConflictError);
  await assert.rejects(() => runner.start(), /no file is selected/);
  const { file } = fileOf(gcode(20).text);
  runner.select(file);
  driver.state = "error";
  await assert.rejects(() => runner.start(), /not operational/);
  driver.state = "operational";
  driver.onSend = (_c, index) => {
    if (index === 5) {
      runner.resume(); // printing: nothing
      assert.throws(() => runner.restart(), /it is printing/);
      runner.pause();
      assert.throws(() => runner.resume(), /it is pausing/);
    }
  };
  const paused = reach("PAUSED");
  await runner.start();
  await paused;
  runner.cancel();
  runner.cancel(); // cancelling already: nothing
  assert.throws(() => runner.pause(), /it is cancelling/);
  await runner.settled();
  assert.equal(runner.state, "OPERATIONAL");
});

Deno.test("cancel stops after the line in flight, sends the cancel script and closes the file", async () => {
  const { driver, runner, states } = setUp();
  const { text, commands } = gcode(200);
  const { file, counts } = fileOf(text);
  driver.onSend = (_command, index) => {
    if (index === 29) runner.cancel();
  };
  runner.select(file);
  await runner.start();
  await runner.settled();
  assert.deepEqual(driver.sent, [...commands.slice(0, 30), ...DEFAULT_JOB_SCRIPTS.cancel]);
  assert.deepEqual(DEFAULT_JOB_SCRIPTS.cancel, ["M104 S0", "M140 S0", "M107", "M84"]);
  assert.deepEqual(states(), ["PRINTING", "CANCELLING", "OPERATIONAL"]);
  assert.equal(counts.cancelled, 1, "the file was closed");
  assert.equal(runner.status().progress.lines, 30);
});

Deno.test("cancel of a paused print sends the configured cancel script", async () => {
  const { driver, runner, reach } = setUp({ scripts: { cancel: ["M104 S0", "G28 X"] } });
  const { file } = fileOf(gcode(50).text);
  driver.onSend = (_c, index) => void (index === 9 && runner.pause());
  const paused = reach("PAUSED");
  runner.select(file);
  await runner.start();
  await paused;
  runner.cancel();
  await runner.settled();
  assert.deepEqual(driver.sent.slice(10), ["M104 S0", "G28 X"]);
  assert.equal(runner.state, "OPERATIONAL");
});

Deno.test("restart prints a paused job again from the beginning without the cancel script", async () => {
  const { driver, runner, reach } = setUp();
  const { text, commands } = gcode(30);
  const { file, counts } = fileOf(text);
  driver.onSend = (_c, index) => void (index === 9 && runner.pause());
  const paused = reach("PAUSED");
  runner.select(file);
  await runner.start();
  await paused;
  runner.restart();
  await runner.settled();
  assert.deepEqual(driver.sent, [...commands.slice(0, 10), ...commands]);
  assert.equal(counts.opened, 2);
  assert.equal(runner.status().progress.lines, 30);
});

Deno.test("a driver failure mid-print ends the job in ERROR with the reason", async () => {
  const { driver, runner, events } = setUp();
  const { file, counts } = fileOf(gcode(200).text);
  driver.onSend = (_c, index) => {
    if (index === 39) {
      throw new PrinterHaltedError("The printer halted: Printer halted. kill() called!");
    }
  };
  runner.select(file);
  await runner.start();
  await runner.settled();
  assert.equal(runner.state, "ERROR");
  assert.equal(runner.error, "The printer halted: Printer halted. kill() called!");
  assert.equal(driver.sent.length, 40, "nothing is sent after the failure");
  assert.equal(counts.cancelled, 1);
  const last = events.at(-1)!;
  assert.deepEqual(last.type === "state" && [last.state, last.error], ["ERROR", runner.error]);
  assert.equal(runner.status().progress.lines, 39);
  // Another print may start once the printer answers again.
  driver.onSend = () => {};
  await runner.start();
  await runner.settled();
  assert.equal(runner.state, "OPERATIONAL");
  assert.equal(runner.error, null);
});

Deno.test("a printer that goes away while paused ends the job in ERROR", async () => {
  const { driver, runner, reach } = setUp();
  const { file } = fileOf(gcode(50).text);
  driver.onSend = (_c, index) => void (index === 9 && runner.pause());
  const paused = reach("PAUSED");
  runner.select(file);
  await runner.start();
  await paused;
  driver.setState("closed", "The line to the printer closed");
  await runner.settled();
  assert.equal(runner.state, "ERROR");
  assert.equal(runner.error, "The line to the printer closed");
});

Deno.test("a file that cannot be printed ends in ERROR naming the line; a deleted one does not start", async () => {
  const { runner } = setUp();
  runner.select(fileOf("G28\nG1 X1*33\n").file);
  await runner.start();
  await runner.settled();
  assert.equal(runner.state, "ERROR");
  assert.match(runner.error!, /line 2 of the file/);
  runner.select({
    name: "gone.gcode",
    size: 1,
    open: () => Promise.reject(new NotFoundError("gone")),
  });
  await assert.rejects(() => runner.start(), NotFoundError);
  assert.equal(runner.state, "ERROR", "unchanged");
});

Deno.test("a listener that throws stops neither the print nor the other listeners", async () => {
  const { runner, states } = setUp();
  runner.subscribe(() => {
    throw new Error("bad listener");
  });
  runner.select(fileOf("G28\n").file);
  await runner.start();
  await runner.settled();
  assert.deepEqual(states(), ["PRINTING", "FINISHING", "OPERATIONAL"]);
});

Deno.test("a 50 MB file streams through with a bounded number of bytes held", async () => {
  const { driver, runner } = setUp();
  const line = encoder.encode(`G1 X100.123 Y100.456 E0.12345 F1800 ; ${"padding ".repeat(8)}\n`);
  const chunkLines = Math.floor(65536 / line.length);
  const chunk = new Uint8Array(chunkLines * line.length);
  for (let i = 0; i < chunkLines; i++) chunk.set(line, i * line.length);
  const size = 50 * 1024 * 1024 - (50 * 1024 * 1024) % chunk.length;
  let produced = 0;
  let held = 0;
  runner.select({
    name: "big.gcode",
    size,
    open: () =>
      Promise.resolve({
        size,
        readable: new ReadableStream<Uint8Array>({
          pull(c) {
            if (produced >= size) return c.close();
            c.enqueue(chunk); // the same bytes each time: the reader copies what it keeps
            produced += chunk.length;
          },
        }, { highWaterMark: 1 }),
      }),
  });
  let sends = 0;
  driver.record = false;
  driver.onSend = () => {
    if (++sends % 1000 === 0) held = Math.max(held, produced - runner.status().progress.filepos!);
  };
  await runner.start();
  await runner.settled();
  assert.equal(runner.state, "OPERATIONAL");
  assert.equal(runner.status().progress.filepos, size);
  assert.equal(sends, size / line.length);
  // RSS says little here (the garbage of half a million lines comes and goes); the bytes read ahead do.
  assert.ok(held <= 3 * chunk.length, `${held} bytes read ahead of what was sent`);
});
