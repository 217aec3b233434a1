/**
 * A model server killed under llama.cpp's router mid-benchmark: the router starts it again on the
 * next request, so that run's time to first token holds the load. The real engine's run is marked
 * and left out of the statistics, and the benchmark says so.
 */
import assert from "node:assert/strict";
import { JobController } from "../../lib/bench/job_control.ts";
import type { BenchEvent } from "../../lib/bench/events.ts";
import { runJob } from "../../lib/bench/job.ts";
import { builtInDefaults } from "../../lib/config/mod.ts";
import { findEngine, listRouterModels, startLlamaServer } from "../../lib/engine/mod.ts";
import { createBackend } from "../../lib/modelserver/factory.ts";
import { ResultsStore } from "../../lib/store/mod.ts";
import { testOptions } from "../lib/bench/_harness.ts";

const engine = findEngine();

/** The pid of the model server the router runs for `model` on `port` (read from /proc). */
function childPid(model: string, port: string): number | null {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const args = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      const at = args.indexOf("--port");
      if (at >= 0 && args[at + 1] === port && args.includes(model)) return Number(entry.name);
    } catch {
      // a process that ended meanwhile
    }
  }
  return null;
}

Deno.test({
  name: "a model server killed under the real router: the reloading run is marked and excluded",
  ignore: !engine,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using server = await startLlamaServer({ ctxSize: 1024, parallel: 1, modelsMax: 1 });
    const store = ResultsStore.open(":memory:");
    const backend = createBackend({ backend: "openai", base_url: server.url });
    const control = new JobController();
    const config = builtInDefaults();
    config.num_runs = 3;
    config.inference.max_tokens = 16;
    const events: BenchEvent[] = [];
    let killed: Promise<void> | null = null;
    try {
      const summary = await runJob(
        config,
        testOptions({ filters: { include_models: "^tiny-a$" } }),
        {
          backend,
          store,
          control,
          emit: (e) => {
            events.push(e);
            if (e.type !== "run_end" || e.run !== 1) return;
            // Kill the model server, and hold the job until the router has noticed it.
            control.pause();
            killed = (async () => {
              const entry = (await listRouterModels(server.url)).find((m) => m.id === "tiny-a")!;
              const args = entry.status.args!;
              const pid = childPid("tiny-a", args[args.indexOf("--port") + 1]!);
              assert.ok(pid, "the model server's pid");
              Deno.kill(pid, "SIGKILL");
              for (let i = 0; i < 100; i++) {
                const now = (await listRouterModels(server.url)).find((m) => m.id === "tiny-a")!;
                if (now.status.value !== "loaded") break;
                await new Promise((r) => setTimeout(r, 100));
              }
              control.resume();
            })();
          },
        },
      );
      await killed;
      assert.equal(summary.outcome, "completed", summary.error ?? "");
      const ends = events.filter((e): e is Extract<BenchEvent, { type: "run_end" }> =>
        e.type === "run_end"
      );
      assert.equal(ends.length, 3);
      assert.equal(ends[0]!.excluded, undefined);
      assert.match(
        ends[1]!.excluded ?? "",
        /the server loaded the model again during the run \(its load changed from loaded\|\d+ to loaded\|\d+\); TTFT \d+ ms/,
      );
      assert.equal(ends[2]!.excluded, undefined, "the run after is measured again");
      const row = store.allResults()[0]!;
      assert.equal(row.runs_ok, 2);
      assert.equal(row.runs_excluded, 1);
      const runs = store.runsOf(row.id);
      assert.deepEqual(runs.map((r) => r.status), ["ok", "excluded", "ok"]);
      // The statistics are those of the two other runs (whatever the machine's timing).
      const kept = [runs[0]!, runs[2]!].map((r) => r.ttft_ms as number);
      assert.equal(row.ttft_ms_max, Math.max(...kept));
      assert.equal(row.ttft_ms_min, Math.min(...kept));
    } finally {
      await backend.close();
      store.close();
    }
  },
});
