/**
 * The entry script's tray on a real X display (Xvfb with a trayer panel): it lives exactly as long
 * as what it was started for — a benchmark that refuses its arguments, a benchmark that runs, a
 * dashboard stopped or killed — and a tray already watching the URL is reused, never doubled.
 * Processes are told apart by a marker in their environment. Ignored only when Xvfb is missing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { x11TrayOwned } from "../../lib/tray/host_probe.ts";
import { REPO_ROOT, tempEnv, waitFor } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";
import { onPath, spawn, startXvfb, stopChild } from "./tray_x11.ts";

const hasXvfb = await onPath("Xvfb");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Processes whose environment holds `mark`, by what their command line runs. */
function marked(mark: string, script: string): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
      if (!environ.includes(`LOCALBENCH_TEST_MARK=${mark}\0`)) continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      if (cmdline.some((a) => a.endsWith(script))) pids.push(Number(entry.name));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

Deno.test({
  name: "the entry script's tray lives as long as its program, and an existing tray is reused",
  ignore: !hasXvfb,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assert.ok(await onPath("trayer"), "trayer is missing (bash tools/test_deps.sh installs it)");
    await using t = await tempEnv();
    const { child: xvfb, display } = await startXvfb(320, 200);
    const children: Deno.ChildProcess[] = [xvfb];
    const mark = crypto.randomUUID();
    const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 40 });
    const env = {
      ...t.vars,
      DISPLAY: display,
      XDG_RUNTIME_DIR: join(t.root, "run"),
      XDG_CACHE_HOME: join(t.root, "cache"),
      LOCALBENCH_TEST_MARK: mark,
      NO_COLOR: "1",
    };
    const trays = () => marked(mark, "tray.ts");
    const entry = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", join(REPO_ROOT, "main.ts"), ...args],
        cwd: REPO_ROOT,
        env,
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
    const bench = ["--use-rest-api", "--base-url", d.url, "--n-parallel", "1", "--retest"];
    try {
      children.push(spawn("trayer", ["--edge", "top", "--height", "32", "--SetDockType", "true"], {
        DISPLAY: display,
      }));
      await waitFor(() => (x11TrayOwned(display) === "ok" ? true : null), {
        what: "the trayer panel",
        timeoutMs: 30_000,
        intervalMs: 200,
      });

      // 1. Arguments the benchmark refuses: exit 2, and the tray goes with it.
      let run = entry(["--runs", "0"]);
      assert.equal((await run.output()).code, 2);
      await sleep(1500); // a tray that outlived its program would be up by now
      await waitFor(() => (trays().length ? null : true), {
        what: "no tray after refused arguments",
        timeoutMs: 30_000,
        intervalMs: 200,
      });

      // 2. A benchmark: the tray is there while it runs and gone after it.
      run = entry([...bench, "--runs", "3", "--max-tokens", "30", "--include-models", "qwen3-4b"]);
      await waitFor(() => (trays().length === 1 ? true : null), {
        what: "the benchmark's tray",
        timeoutMs: 30_000,
        intervalMs: 200,
      });
      assert.equal((await run.output()).code, 0);
      await waitFor(() => (trays().length ? null : true), {
        what: "no tray after the benchmark",
        timeoutMs: 30_000,
        intervalMs: 200,
      });

      // 3. A tray already watching the URL is reused: the benchmark's own tray ends at once and
      //    the first one stays after the benchmark.
      const standing = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", join(REPO_ROOT, "tray.ts"), "--url", "http://localhost:1234"],
        cwd: REPO_ROOT,
        env,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      children.push(standing);
      const claim = join(t.root, "run", "localbench");
      await waitFor(() => {
        try {
          return [...Deno.readDirSync(claim)].some((e) => e.name.endsWith(".sock")) ? true : null;
        } catch {
          return null;
        }
      }, { what: "the standing tray's claim", timeoutMs: 30_000, intervalMs: 200 });
      run = entry([...bench, "--runs", "3", "--max-tokens", "40", "--include-models", "qwen3-4b"]);
      await sleep(6000);
      assert.deepEqual(trays(), [standing.pid], "one tray for the URL while the benchmark runs");
      assert.equal((await run.output()).code, 0);
      await sleep(1000);
      assert.deepEqual(trays(), [standing.pid], "the reused tray stays");
      await stopChild(standing);

      // 4. The dashboard: the tray follows it, and ends when it is stopped or killed.
      for (const signal of ["SIGTERM", "SIGKILL"] as const) {
        const web = entry(["-w", "--no-plugins"]);
        await waitFor(() => (trays().length === 1 ? true : null), {
          what: "the dashboard's tray",
          timeoutMs: 30_000,
          intervalMs: 200,
        });
        web.kill(signal);
        await web.status;
        await waitFor(() => (trays().length ? null : true), {
          what: `no tray after ${signal}`,
          timeoutMs: 30_000,
          intervalMs: 200,
        });
        for (const pid of marked(mark, "webapp.ts")) Deno.kill(pid, "SIGTERM"); // orphaned by SIGKILL
        await web.stderr.cancel();
      }
    } finally {
      for (const pid of [...marked(mark, "tray.ts"), ...marked(mark, "webapp.ts")]) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone */ }
      }
      await d.close();
      for (const c of children.reverse()) await stopChild(c);
    }
  },
});
