/**
 * The launcher of `deno task host` supervising its host for real: `kill -9` of the host process is
 * logged at ERROR (the signal, the host's last lines) and the host answers again after the
 * backoff; a host that then cannot start because another program took its port stays down, the
 * launcher applies the branch controller's failsafe to the hub simulator once `host_down_grace`
 * has passed, and the host that finally starts takes the outputs as the hub reports them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { waitFor } from "../_helpers.ts";
import { startHubSimulator } from "../doubles/powerhub_sim.ts";
import { startScopedHost } from "./_scoped_host.ts";

const BP = "/api/plugin/branchplus";
const IGNORE = "{ idle: ignore, prepare: ignore, printing: ignore, paused: ignore, error: ignore }";

/** The pid of the host process the launcher started last, as its log line says. */
function hostPid(stderr: string): number {
  const pids = [...stderr.matchAll(/INFO - Plugin host started \(pid (\d+)\)/g)];
  return Number(pids.at(-1)![1]);
}

Deno.test({
  name:
    "a killed host is logged and restarted, and one that stays down gets the outputs' failsafe from the launcher",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_supervise_" });
    const hub = await startHubSimulator();
    await Deno.mkdir(join(dataDir, "host"), { recursive: true });
    // Channels the rules leave alone: only the failsafe switches them.
    const channel = (kind: string, id: number, failsafe: string) =>
      `      - { kind: ${kind}, id: ${id}, rules: ${IGNORE}, failsafe: '${failsafe}' }`;
    await Deno.writeTextFile(
      join(dataDir, "host", "config.yaml"),
      [
        "plugins:",
        "  branchplus:",
        "    _version: 1",
        "    host: 127.0.0.1",
        `    port: ${hub.port}`,
        "    min_switch_interval: 0",
        "    channels:",
        channel("usb", 1, "off"),
        channel("usb", 2, "hold"),
        channel("mx24v", 1, "on"),
        "",
      ].join("\n"),
    );
    const h = await startScopedHost({ dataDir });
    let blocker: Deno.Listener | null = null;
    try {
      const connected = async () => (await h.call("GET", BP)).body.connected === true;
      await h.until("the hub connected", connected);
      for (const [kind, id] of [["usb", 1], ["usb", 2]] as const) {
        const on = await h.call("POST", BP, { command: "set_channel", kind, id, on: true });
        assert.deepEqual(on.body, { ok: true });
      }
      await h.until("usb 1 and 2 on", () => Promise.resolve(hub.channels.usb?.["2"] === 1));
      const logFile = join(dataDir, "host", "logs", "host.log");

      // 1. kill -9 of the host process: an ERROR line with the signal and the last lines, then
      //    the host answers again on its port after 1 s; back in time, so no failsafe.
      const first = hostPid(h.stderr());
      const sent = hub.commands.length;
      Deno.kill(first, "SIGKILL");
      await h.until("the crash report", () =>
        Promise.resolve(
          /ERROR - Plugin host crashed after [\d.]+ s: killed by SIGKILL \(exit code 137\); starting it again in 1 s; its last lines on standard error:\n {4}\d{4}-\d\d-\d\d [\d:,]+ - localbench\.host/
            .test(h.stderr()),
        ));
      await h.until("the host back", connected, 30_000);
      assert.notEqual(hostPid(h.stderr()), first);
      assert.match(h.stdout(), new RegExp(`Plugin host is back, listening on ${h.base}/`));
      assert.deepEqual(hub.commands.slice(sent), [], "nothing switched");
      // The launcher may not write: the host it started again wrote its lines to host.log.
      await h.until(
        "the crash in host.log",
        async () =>
          /localbench\.launcher - ERROR - Plugin host crashed .*killed by SIGKILL/
            .test(await Deno.readTextFile(logFile)),
      );

      // 2. The failsafe 1 s after a crash; another program takes the port the host listens on.
      const saved = await h.call("POST", "/api/settings", {
        plugins: { branchplus: { host_down_grace: 1 } },
      });
      assert.equal(saved.status, 200);
      assert.equal(saved.body.reapplying, undefined);
      Deno.kill(hostPid(h.stderr()), "SIGKILL");
      blocker = await waitFor(() => {
        try {
          return Deno.listen({ hostname: "127.0.0.1", port: Number(h.port) });
        } catch {
          return null; // the killed host's socket is not closed yet
        }
      }, 5000);
      await h.until(
        "the failsafe applied by the launcher",
        () => Promise.resolve(hub.channels.usb?.["1"] === 0 && hub.channels.mx24v?.["1"] === 1),
        20_000,
      );
      assert.equal(hub.channels.usb?.["2"], 1, "usb 2 holds");
      await h.until("the failsafe logged", () =>
        Promise.resolve(
          /WARNING - Failsafe of Branch power controller applied: hub at ws:\/\/127\.0\.0\.1:\d+\/ws: switched off: usb 1, usb 3, usb 4, usb 5, mx24v 2, mx24v 3, mx24v 4, mx24v 5; switched on: mx24v 1; held: usb 2\n/
            .test(h.stderr()),
        ));
      // A start that fails backs off too, and the report says why.
      await h.until("a failed start", () =>
        Promise.resolve(
          /ERROR - Plugin host failed before it was up: exit code 1; starting it again in \d+ s; its last lines on standard error:\n( {4}.*\n)* {4}Error: Address already in use/
            .test(h.stderr()),
        ), 20_000);
      blocker.close();
      blocker = null;

      // 3. Back as after a real stop: the outputs as the hub reports them, nothing switched back.
      const afterFailsafe = hub.commands.length;
      await h.until("the host back after the failsafe", connected, 40_000);
      const state = (await h.call("GET", BP)).body as {
        channels: Record<string, Record<string, number>>;
      };
      assert.deepEqual(
        [state.channels.usb!["1"], state.channels.usb!["2"], state.channels.mx24v!["1"]],
        [0, 1, 1],
      );
      assert.deepEqual(hub.commands.slice(afterFailsafe), []);
      await h.until(
        "the failsafe in host.log",
        async () =>
          /localbench\.launcher - WARNING - Failsafe of Branch power controller applied/
            .test(await Deno.readTextFile(logFile)),
      );
      const { code } = await h.stop();
      assert.equal(code, 0);
    } finally {
      blocker?.close();
      await h.stop().catch(() => {});
      await hub.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
