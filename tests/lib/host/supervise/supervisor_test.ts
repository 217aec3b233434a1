/** The launcher's watch over the host: crashes, backoff, planned restarts, stops, failsafes. */
import assert from "node:assert/strict";
import { ManualClock } from "../../../_fake_clock.ts";
import type { FailsafeOutcome } from "../../../../lib/host/plugin.ts";
import type { DetailSink } from "../../../../lib/log.ts";
import {
  type DownFailsafe,
  type HostExit,
  Supervisor,
} from "../../../../lib/host/supervise/supervisor.ts";

/** Lets every pending promise and microtask run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

interface FakeRun {
  resumed: boolean;
  up(): void;
  end(exit?: Partial<HostExit>): void;
  killed: Deno.Signal[];
}

/** A supervisor over fake host runs the test ends by hand, on a manual clock. */
function supervise(failsafes: DownFailsafe[] = [], details?: DetailSink) {
  const clock = new ManualClock();
  const runs: FakeRun[] = [];
  const lines: string[] = [];
  const supervisor = new Supervisor({
    ...(details ? { details } : {}),
    clock,
    sink: (_level, line) => lines.push(line),
    failsafes: () => Promise.resolve(failsafes),
    start(resumed, up) {
      const { promise, resolve } = Promise.withResolvers<HostExit>();
      const run: FakeRun = {
        resumed,
        up,
        killed: [],
        end: (exit = {}) => resolve({ code: 0, signal: null, restart: null, tail: [], ...exit }),
      };
      runs.push(run);
      return Promise.resolve({
        pid: 100 + runs.length,
        ended: promise,
        kill: (signal) => run.killed.push(signal),
      });
    },
  });
  const done = supervisor.run();
  return {
    clock,
    runs,
    lines,
    supervisor,
    done,
    last: () => runs.at(-1)!,
    errors: () => lines.filter((l) => l.includes(" - ERROR - ")),
    /** Ends the current run with `exit`; returns the wait before the next start. */
    async crash(exit: Partial<HostExit>): Promise<number> {
      runs.at(-1)!.end(exit);
      await settle();
      return Math.min(...clock.pendingDelays());
    },
    /** Moves the clock on and lets the supervisor act. */
    async advance(ms: number) {
      clock.advance(ms);
      await settle();
    },
  };
}

function failsafe(name: string, delayMs: number, outcome: FailsafeOutcome) {
  const applied: number[] = [];
  const entry: DownFailsafe = {
    name,
    delayMs,
    apply: () => {
      applied.push(applied.length + 1);
      return Promise.resolve(outcome);
    },
  };
  return { entry, applied };
}

Deno.test("a host killed by a signal is logged at ERROR with the signal and its last lines, then started again after 1 s", async () => {
  const s = supervise();
  await settle();
  assert.match(s.lines[0]!, / - localbench\.launcher - INFO - Plugin host started \(pid 101\)$/);
  s.last().up();
  await s.advance(5000);
  const wait = await s.crash({ code: 137, signal: "SIGKILL", tail: ["line one", "line\x1btwo"] });
  assert.equal(wait, 1000);
  const at = s.lines.findIndex((l) => l.includes(" - ERROR - "));
  assert.match(
    s.lines[at]!,
    /Plugin host crashed after 5 s: killed by SIGKILL \(exit code 137\); starting it again in 1 s; its last lines on standard error:$/,
  );
  // The last lines follow as the entry's indented continuation lines, made safe.
  assert.deepEqual(s.lines.slice(at + 1, at + 3), ["    line one", "    line\\u001btwo"]);
  await s.advance(999);
  assert.equal(s.runs.length, 1);
  await s.advance(1);
  assert.equal(s.runs.length, 2);
  assert.equal(s.last().resumed, false, "a crash is not a planned restart");
  s.last().up();
  await settle();
  assert.match(s.lines.at(-1)!, /INFO - Plugin host back after 1 s down$/);
  s.supervisor.stop();
  s.last().end();
  assert.equal(await s.done, 0);
});

Deno.test("a host that exits non-zero before it listens is started again after 1, 2, 4, 8, 16, 30 and 30 s", async () => {
  const s = supervise();
  await settle();
  const waits: number[] = [];
  for (let i = 0; i < 7; i++) {
    const wait = await s.crash({ code: 1, tail: ["Error: Address already in use (os error 98)"] });
    waits.push(wait);
    await s.advance(wait);
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  assert.equal(s.runs.length, 8, "no start between the waits");
  const first = s.errors()[0]!;
  assert.match(
    first,
    /Plugin host failed before it was up: exit code 1; starting it again in 1 s/,
  );
  assert.ok(s.lines.includes("    Error: Address already in use (os error 98)"), "it says why");
  s.supervisor.stop();
  s.last().end({ code: 143, signal: "SIGTERM" });
  await s.done;
});

Deno.test("a run of 60 s resets the backoff and a shorter one does not", async () => {
  const s = supervise();
  await settle();
  for (const wait of [1000, 2000, 4000]) {
    assert.equal(await s.crash({ code: 1 }), wait);
    await s.advance(wait);
  }
  s.last().up();
  await s.advance(59_000);
  assert.equal(await s.crash({ code: 1 }), 8000, "59 s is not a healthy run");
  assert.match(s.errors().at(-1)!, /crashed after 59 s: exit code 1; .*it wrote nothing/);
  await s.advance(8000);
  s.last().up();
  await s.advance(60_000);
  assert.equal(await s.crash({ signal: "SIGSEGV", code: 139 }), 1000, "60 s is");
  s.supervisor.stop();
  assert.equal(await s.done, 0);
});

Deno.test("a stop during the backoff ends at once with code 0 and applies the failsafes still due", async () => {
  const hub = failsafe("Branch power controller", 60_000, { ok: true, message: "usb 1 off" });
  const s = supervise([hub.entry]);
  await settle();
  s.last().up();
  await s.crash({ code: 137, signal: "SIGKILL" });
  s.supervisor.stop("SIGINT");
  assert.equal(await s.done, 0);
  assert.equal(s.runs.length, 1, "not started again");
  assert.deepEqual(hub.applied, [1], "the launcher's stop is a real stop");
  assert.match(
    s.lines.at(-1)!,
    /WARNING - Failsafe of Branch power controller applied: usb 1 off$/,
  );
  assert.equal(s.clock.timerCount, 0);
});

Deno.test("SIGINT while the host runs is forwarded, its exit code returned, and no failsafe applied", async () => {
  const hub = failsafe("Hub", 1000, { ok: true, message: "m" });
  const s = supervise([hub.entry]);
  await settle();
  s.last().up();
  s.supervisor.stop("SIGINT");
  assert.deepEqual(s.last().killed, ["SIGINT"]);
  s.last().end({ code: 0 });
  assert.equal(await s.done, 0);
  assert.deepEqual(hub.applied, []);
  assert.deepEqual(s.errors(), []);
});

Deno.test("a planned restart starts the host again at once, resumed, with no crash report", async () => {
  const s = supervise();
  await settle();
  s.last().up();
  s.last().end({ restart: "the hub address needs a wider scope" });
  await settle();
  assert.equal(s.runs.length, 2);
  assert.equal(s.last().resumed, true);
  assert.ok(
    s.lines.some((l) =>
      l.endsWith("INFO - Restarting the plugin host: the hub address needs a wider scope")
    ),
  );
  assert.deepEqual(s.errors(), []);
  s.supervisor.stop();
  s.last().end();
  await s.done;
});

Deno.test("a failsafe applies once when the host stays down past its delay, and not when it is back in time", async () => {
  const hub = failsafe("Hub", 5000, { ok: false, message: "no snapshot from the hub" });
  const s = supervise([hub.entry]);
  await settle();
  s.last().up();
  // Down at t=0, failing starts at 1 s and 3 s (waits 1, 2, 4 s): due at 5 s, applied once.
  await s.crash({ code: 137, signal: "SIGKILL" });
  await s.advance(1000);
  await s.crash({ code: 1 });
  await s.advance(2000);
  await s.crash({ code: 1 });
  await s.advance(1999);
  assert.deepEqual(hub.applied, []);
  await s.advance(1);
  assert.deepEqual(hub.applied, [1]);
  assert.ok(
    s.lines.some((l) =>
      l.endsWith("WARNING - Plugin host down for 5 s: applying the failsafe of Hub")
    ),
  );
  assert.match(s.errors().at(-1)!, /ERROR - Failsafe of Hub failed: no snapshot from the hub$/);
  await s.advance(3000);
  s.last().up();
  await s.advance(60_000);
  // Down again after a healthy run, back after 1 s, within the delay: nothing applies.
  assert.equal(await s.crash({ code: 137, signal: "SIGKILL" }), 1000);
  await s.advance(1000);
  s.last().up();
  await s.advance(60_000);
  assert.deepEqual(hub.applied, [1]);
  s.supervisor.stop();
  s.last().end();
  assert.equal(await s.done, 0);
});

Deno.test("a crash report keeps its stack in the detail sink and names it by reference", async () => {
  const entries: { line: string; details: string[] }[] = [];
  const s = supervise([], {
    name: "errors.log",
    write: (line, details) => entries.push({ line, details }),
  });
  await settle();
  s.last().up();
  const tail = [
    "error: Uncaught (in promise) TypeError: boom",
    "  config.path.length",
    "         ^",
    "    at load (file:///srv/localbench/lib/host/x.ts:3:9)",
    "    at async main (file:///srv/localbench/host.ts:80:3)",
  ];
  await s.crash({ code: 1, tail });
  const at = s.lines.findIndex((l) => l.includes(" - ERROR - "));
  const report = s.lines.slice(at + 1);
  assert.deepEqual(report.slice(0, 2), [
    "    error: Uncaught (in promise) TypeError: boom",
    "      config.path.length",
  ]);
  const m = report[2]!.match(/^ {4}\(3 stack lines: errors\.log ref ([0-9a-f]{8})\)$/);
  assert.ok(m, report.join("\n"));
  assert.doesNotMatch(s.lines.join("\n"), /file:\/\/|x\.ts/, "no stack in the log");
  assert.equal(entries.length, 1);
  assert.match(
    entries[0]!.line,
    new RegExp(` - localbench\\.launcher - ERROR - ref ${m[1]}: Plugin host crashed after `),
  );
  assert.deepEqual(entries[0]!.details, tail.map((l) => `    ${l}`));
  s.supervisor.stop();
  await s.done;
});

Deno.test("a crash report without a stack writes nothing to the detail sink", async () => {
  const entries: string[] = [];
  const s = supervise([], { name: "errors.log", write: (line) => entries.push(line) });
  await settle();
  await s.crash({ code: 1, tail: ["Error: Address already in use (os error 98)"] });
  assert.ok(s.lines.some((l) => l === "    Error: Address already in use (os error 98)"));
  assert.ok(!s.lines.some((l) => l.includes("stack lines")));
  assert.deepEqual(entries, []);
  s.supervisor.stop();
  await s.done;
});
