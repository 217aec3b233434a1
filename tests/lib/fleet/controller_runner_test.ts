import assert from "node:assert/strict";
import type { JobSummary } from "../../../lib/bench/mod.ts";
import { resolveInvocation } from "../../../lib/cli/mod.ts";
import { BenchmarkController, type ControllerDeps } from "../../../lib/dashboard/controller.ts";
import { UnreachableError } from "../../../lib/error.ts";
import type { AgentEvent } from "../../../lib/fleet/agent.ts";
import { BenchmarkFailedError, controllerRunner } from "../../../lib/fleet/controller_runner.ts";
import type { Backend } from "../../../lib/modelserver/mod.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";

const SUMMARY: JobSummary = {
  outcome: "completed",
  tested: ["tiny"],
  partial: [],
  failed: [],
  skipped: [],
  error: null,
  paramsHash: "h",
  resultIds: [1],
};

/** What the controller asks of a backend around the (fake) job: its version, and close. */
const FAKE_BACKEND = {
  version: () => Promise.resolve("0.0.1"),
  describe: () => "a fake model server",
  close: () => Promise.resolve(),
} as unknown as Backend;

/** An empty home: no user configuration. */
const HOME = Deno.makeTempDirSync();
globalThis.addEventListener("unload", () => Deno.removeSync(HOME, { recursive: true }));

/** A controller over an in-memory store whose job is `runJob`. */
function controllerWith(runJob: ControllerDeps["runJob"], connect?: ControllerDeps["connect"]) {
  const store = ResultsStore.open(":memory:");
  const controller = new BenchmarkController({
    store,
    resolve: (argv) =>
      resolveInvocation(argv, { env: (name) => name === "HOME" ? HOME : undefined }),
    connect: connect ??
      (() => Promise.resolve(FAKE_BACKEND)),
    runJob,
  });
  return { controller, [Symbol.dispose]: () => store.close() };
}

Deno.test("controllerRunner runs the job with the given arguments and resolves with its outcome", async () => {
  let seenRuns: number | undefined;
  using c = controllerWith((config, _options, deps) => {
    seenRuns = config.num_runs;
    deps.emit({ type: "log", level: "info", message: "measuring tiny" });
    return Promise.resolve(SUMMARY);
  });
  const events: AgentEvent[] = [];
  const outcome = await controllerRunner(c.controller).run(
    ["--runs", "2"],
    (e) => events.push(e),
    new AbortController().signal,
  );
  assert.equal(seenRuns, 2);
  assert.equal((outcome as { outcome: string }).outcome, "completed");
  assert.ok(events.some((e) => e.type === "log" && e.message === "measuring tiny"));
  assert.equal(events.at(-1)?.type, "status");
  assert.equal(events.at(-1)?.status, "idle");
});

Deno.test("controllerRunner rejects with the outcome's error when the benchmark failed", async () => {
  using c = controllerWith(() =>
    Promise.resolve({ ...SUMMARY, outcome: "failed", error: "out of memory" })
  );
  await assert.rejects(
    () => controllerRunner(c.controller).run([], () => {}, new AbortController().signal),
    (e) => e instanceof BenchmarkFailedError && e.message === "out of memory",
  );
});

Deno.test("controllerRunner rejects when the model server does not answer", async () => {
  using c = controllerWith(
    () => Promise.resolve(SUMMARY),
    () => Promise.reject(new UnreachableError("No model server at http://127.0.0.1:1234")),
  );
  await assert.rejects(
    () => controllerRunner(c.controller).run([], () => {}, new AbortController().signal),
    /No model server/,
  );
});

Deno.test("controllerRunner stops the benchmark when the job's claim is gone", async () => {
  using c = controllerWith(async (_config, _options, deps) => {
    for (let i = 0; i < 200 && !deps.control.signal.aborted; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    return { ...SUMMARY, outcome: deps.control.signal.aborted ? "stopped" : "completed" };
  });
  const abort = new AbortController();
  const running = controllerRunner(c.controller).run([], () => {}, abort.signal);
  await new Promise((r) => setTimeout(r, 50));
  abort.abort();
  const outcome = await running as { outcome: string };
  assert.equal(outcome.outcome, "stopped");
});
