/**
 * The real tray icon under Xvfb with a trayer panel, against the fake dashboard: red while the
 * dashboard is unreachable, then gray → green → yellow as it goes idle → running → paused, and
 * Quit (clicked in the GTK menu with xdotool) shuts the dashboard down and ends the tray.
 * Screenshots go to test-artifacts/. Ignored only when Xvfb is missing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { x11TrayOwned } from "../../lib/tray/host_probe.ts";
import type { IconColor } from "../../lib/tray/mod.ts";
import { REPO_ROOT, waitFor } from "../_helpers.ts";
import { startFakeDashboard } from "../lib/tray/_fake_dashboard.ts";
import { grab, iconColor, onPath, screenshot, spawn, startXvfb, stopChild } from "./tray_x11.ts";

const W = 480;
const H = 320;
const ARTIFACTS = join(REPO_ROOT, "test-artifacts");
const hasXvfb = await onPath("Xvfb");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: "the tray icon follows a live dashboard under Xvfb and Quit shuts it down",
  ignore: !hasXvfb,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    for (const tool of ["trayer", "xdotool", "import"]) {
      assert.ok(await onPath(tool), `${tool} is missing (bash tools/test_deps.sh installs it)`);
    }
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    const cache = await Deno.makeTempDir({ prefix: "localbench-tray-cache-" });
    const reserve = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (reserve.addr as Deno.NetAddr).port;
    reserve.close();
    const { child: xvfb, display } = await startXvfb(W, H);
    const children: Deno.ChildProcess[] = [xvfb];
    let helperPid = 0;
    let dash: ReturnType<typeof startFakeDashboard> | null = null;
    const logs: string[] = [];
    try {
      const env = { DISPLAY: display };
      const trayer = spawn("trayer", [
        "--edge",
        "top",
        "--align",
        "left",
        "--widthtype",
        "request",
        "--height",
        "32",
        "--SetDockType",
        "true",
        "--transparent",
        "false",
        "--tint",
        "0x000000",
      ], env);
      children.push(trayer);
      await waitFor(() => Promise.resolve(x11TrayOwned(display) === "ok" ? true : null), {
        what: "the trayer panel",
        timeoutMs: 30_000,
        intervalMs: 200,
      });

      const tray = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--config",
          join(REPO_ROOT, "deno.json"),
          join(REPO_ROOT, "tray.ts"),
          "--url",
          `http://127.0.0.1:${port}`,
          "--debug",
        ],
        env: {
          ...env,
          XDG_CACHE_HOME: cache,
          NO_COLOR: "1",
          LOCALBENCH_DASHBOARD_TOKEN: "e2e-token",
        },
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      children.push(tray);
      void (async () => {
        for await (const chunk of tray.stderr.pipeThrough(new TextDecoderStream())) {
          logs.push(chunk);
          const m = /Tray helper started \(pid (\d+)\)/.exec(logs.join(""));
          if (m) helperPid = Number(m[1]);
        }
      })();

      const seen = async (color: IconColor, artifact?: string) => {
        const found = await waitFor(async () => {
          const c = iconColor(await grab(display, W, H), W);
          return c.color === color ? c : null;
        }, { what: `a ${color} icon`, timeoutMs: 30_000, intervalMs: 200 });
        if (artifact) await screenshot(display, join(ARTIFACTS, artifact));
        return found;
      };

      await seen("red", "tray_unreachable.png");
      dash = startFakeDashboard({ port, token: "e2e-token" });
      await seen("gray", "tray_idle.png");
      const post = async (path: string) => {
        const res = await fetch(`${dash!.url}/api/benchmark/${path}`, {
          method: "POST",
          headers: { Authorization: "Bearer e2e-token" },
        });
        assert.equal(res.status, 200, await res.text());
      };
      await post("start");
      await seen("green", "tray_running.png");
      await post("pause");
      const icon = await seen("yellow", "tray_paused.png");

      // Quit through the menu: click the icon, then Up (last item) and Return.
      const xdo = (...args: string[]) => new Deno.Command("xdotool", { args, env }).output();
      await xdo("mousemove", String(icon.x), String(icon.y), "click", "1");
      await sleep(800);
      await screenshot(display, join(ARTIFACTS, "tray_menu.png"));
      await xdo("key", "Up");
      await sleep(300);
      await xdo("key", "Return");
      await Promise.race([
        dash.shutdown,
        sleep(8000).then(() => Promise.reject(new Error("no shutdown"))),
      ]);
      const status = await Promise.race([tray.status, sleep(10_000).then(() => null)]);
      assert.ok(status, `the tray did not exit after Quit:\n${logs.join("")}`);
      assert.equal(status.code, 0, logs.join(""));
      const posts = dash.requests.filter((r) => r.method === "POST");
      assert.equal(posts.at(-1)!.path, "/api/system/shutdown");
      assert.equal(posts.at(-1)!.authorization, "Bearer e2e-token");
      assert.match(logs.join(""), /Menu: quit \(state paused\)/);
    } finally {
      for (const child of children.reverse()) await stopChild(child);
      if (helperPid) {
        try {
          Deno.kill(helperPid, "SIGKILL");
        } catch {
          // the helper ended with the tray
        }
      }
      await dash?.close();
      await Deno.remove(cache, { recursive: true });
    }
  },
});
