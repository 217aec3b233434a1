/**
 * `deno task host` (launcher → permission-scoped host) through a planned restart and a clean
 * stop: the host uptime is the service's (it counts from the launcher's start, across the
 * restart), and neither the restart nor the stop writes a WARNING or ERROR line of the host or
 * the launcher.
 */
import assert from "node:assert/strict";
import { startScopedHost } from "./_scoped_host.ts";
import { startHubSimulator } from "../doubles/powerhub_sim.ts";

/** The WARNING and ERROR lines of the host's and the launcher's own loggers (not the plugins'). */
export function hostProblems(log: string): string[] {
  return log.split("\n").filter((l) =>
    / - localbench\.(host(?!\.plugins\.)[\w.]*|launcher) - (WARNING|ERROR) - /.test(l)
  );
}

Deno.test({
  name:
    "the host uptime survives a planned restart, and the restart and a clean stop log no host warning",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_planned_" });
    const sim = await startHubSimulator({ port: 0 });
    const h = await startScopedHost({ dataDir });
    try {
      type Uptime = { host_seconds: number; host_started: string; host_uptime_dhm: string };
      const uptime = async () => (await h.call("GET", "/api/plugin/host_uptime")).body as Uptime;
      // Long enough that a host counting from its own start would show it.
      const before = await h.until("two seconds of uptime", async () => {
        const u = await uptime();
        return u.host_seconds >= 2 && u;
      });
      // A browser's push socket is open through the restart and the stop.
      const ws = await h.push();
      const saved = await h.call("POST", "/api/settings", {
        plugins: { branchplus: { host: sim.host, port: sim.port, path: sim.path } },
      });
      assert.equal(saved.status, 200);
      assert.equal(saved.body.reapplying, true, JSON.stringify(saved.body));
      await h.until(
        "the host re-applied its settings",
        () => Promise.resolve(/re-applied its settings/.test(h.stdout())),
        30_000,
      );
      const after = await h.until("the restarted host answers", uptime);
      const drift = Math.abs(Date.parse(after.host_started) - Date.parse(before.host_started));
      assert.ok(drift <= 1000, `host started ${before.host_started}, then ${after.host_started}`);
      assert.ok(after.host_seconds >= before.host_seconds, JSON.stringify({ before, after }));
      assert.match(after.host_uptime_dhm, /^0d 0h \dm$/);
      // The socket reconnects to the restarted host.
      const again = await h.push();
      await again.close();
      await ws.close().catch(() => {});
    } finally {
      const { code, stderr } = await h.stop();
      await sim.close();
      const log = await Deno.readTextFile(`${dataDir}/host/logs/host.log`).catch(() => "");
      await Deno.remove(dataDir, { recursive: true });
      assert.equal(code, 0, stderr);
      assert.match(log, /Restarting the plugin host: the settings need/);
      assert.match(log, /Plugin host stopped/);
      assert.deepEqual(hostProblems(log), [], log);
      assert.deepEqual(hostProblems(stderr), [], stderr);
    }
  },
});
