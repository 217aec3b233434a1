/**
 * Runs `host.ts` the way `deno task host` does (launcher → permission-scoped child) and shows
 * that every plugin works while Deno refuses reads outside the host's folders.
 */
import assert from "node:assert/strict";
import { ensureIslandsBuilt } from "../_helpers.ts";
import { openWs, waitFor } from "../lib/host/_helpers.ts";
import { startScopedHost } from "./_scoped_host.ts";

Deno.test({
  name:
    "the permission-scoped host serves every plugin while Deno refuses reads outside its folders",
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_scoped_" });
    const outside = await Deno.makeTempDir({ prefix: "lb_outside_" });
    // With the web UI: the host serves the islands `deno task build` wrote (it may not write).
    await ensureIslandsBuilt();
    const h = await startScopedHost({ dataDir, args: [] });
    try {
      const get = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${h.base}${path}`, {
          ...init,
          headers: { "X-Api-Key": h.key, "Content-Type": "application/json", ...init.headers },
        });
        return { status: res.status, body: await res.json().catch(() => null) };
      };
      const logDir = `${dataDir}/host/logs`;
      await Deno.writeTextFile(`${outside}/secret.log`, "TOPSECRET\n");
      await Deno.symlink(`${outside}/secret.log`, `${logDir}/escape.log`);
      await Deno.writeTextFile(
        `${logDir}/app.log`,
        "2024-01-01 12:00:00,000 - a - WARNING - hello scoped\n",
      );

      // The pages: the route tree and the prebuilt bundles, read-only under the scope.
      const page = await fetch(`${h.base}/plugins/logmonitor/`, {
        headers: { "X-Api-Key": h.key },
      });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /data-island="logmonitor\/LogViewer"/);
      const assets = ["/styles.css", "/_islands/plugins.css", "/_islands/boot.js"];
      for (const asset of [...assets, "/_islands/logmonitor/LogViewer.js"]) {
        const res = await fetch(`${h.base}${asset}`);
        assert.equal(res.status, 200, asset);
        await res.body?.cancel();
      }
      const uptime = await get("/api/plugin/host_uptime");
      assert.equal(uptime.status, 200);
      assert.equal(uptime.body.uptime_available, true);
      assert.ok(uptime.body.seconds > 0);

      const files = await get("/plugin/logmonitor/files");
      assert.ok(files.body.files.some((f: { name: string }) => f.name === "app.log"));
      const search = await get("/plugin/logmonitor/search?file=app.log&query=scoped");
      assert.equal(search.body.results[0].level, "WARNING");
      const escape = await get("/plugin/logmonitor/download/escape.log");
      assert.equal(escape.status, 403);
      assert.ok(!JSON.stringify(escape.body).includes("TOPSECRET"));

      const ws = await openWs(`ws://127.0.0.1:${h.port}/push`, { "X-Api-Key": h.key });
      const start = await get("/plugin/logmonitor/stream/start", {
        method: "POST",
        body: JSON.stringify({ file: "app.log" }),
      });
      assert.equal(start.body.status, "started");
      // Under these flags the tail is still told of new lines at once (file watching works).
      const written = performance.now();
      await Deno.writeTextFile(
        `${logDir}/app.log`,
        "2024-01-01 12:00:01,000 - a - INFO - watched line\n",
        { append: true },
      );
      await waitFor(() => JSON.stringify(ws.messages).includes("watched line"), 1000);
      assert.ok(performance.now() - written < 1000, "the live tail shows a line within 1 s");
      // Regular expressions run in a worker that needs no read permission on the sources.
      await get("/api/settings", {
        method: "POST",
        body: JSON.stringify({ plugins: { logmonitor: { regex_search_enabled: true } } }),
      });
      const regex = await get(
        "/plugin/logmonitor/search?file=app.log&use_regex=true&query=w.tched",
      );
      assert.equal(regex.status, 200, JSON.stringify(regex.body));
      assert.equal(regex.body.results[0].message, "watched line");
      const saved = await get("/api/settings", {
        method: "POST",
        body: JSON.stringify({
          plugins: {
            logmonitor: { stream_poll_interval_s: 1 },
            host_uptime: { poll_interval_seconds: 9 },
          },
        }),
      });
      assert.equal(saved.status, 200);
      assert.equal((await get("/api/plugin/host_uptime")).body.poll_interval_seconds, 9);
      assert.equal(
        (await get("/api/printer/bed", {
          method: "POST",
          body: JSON.stringify({ command: "target", target: 50 }),
        })).status,
        204,
      );
      assert.equal((await get("/api/printer")).body.temperature.bed.target, 50);
      await ws.close();

      const log = await Deno.readTextFile(`${logDir}/host.log`);
      assert.match(log, /Permission scope: read outside the host folders is refused/);
    } finally {
      const { code } = await h.stop();
      assert.equal(code, 0);
      await Deno.remove(dataDir, { recursive: true });
      await Deno.remove(outside, { recursive: true });
    }
  },
});

Deno.test("a script under the same permission flags cannot read outside the host folders", async () => {
  const { pluginSystemInfo, resolveHostPaths, scopedPermissionFlags } = await import(
    "../../lib/host/mod.ts"
  );
  const { plugins } = await import("../../plugins/registry.ts");
  const dataDir = await Deno.makeTempDir();
  const outside = await Deno.makeTempFile();
  try {
    const flags = scopedPermissionFlags({
      paths: resolveHostPaths({ HOME: dataDir }, { dataDir }),
      listen: { hostname: "127.0.0.1", port: 0 },
      systemInfo: pluginSystemInfo(plugins),
    });
    const probe = `
      const tryRead = async (p) => { try { await Deno.readTextFile(p); return "ok"; } catch (e) { return e.name; } };
      const tryRun = () => { try { new Deno.Command("true").outputSync(); return "ok"; } catch (e) { return e.name; } };
      await Deno.mkdir(${JSON.stringify(dataDir + "/host")}, { recursive: true });
      await Deno.writeTextFile(${JSON.stringify(dataDir + "/host/x.txt")}, "in");
      console.log(JSON.stringify({
        outside: await tryRead(${JSON.stringify(outside)}),
        etc: await tryRead("/etc/hostname"),
        inside: await tryRead(${JSON.stringify(dataDir + "/host/x.txt")}),
        run: tryRun(),
        uptime: Deno.osUptime() > 0,
      }));`;
    const script = `${dataDir}/probe.js`;
    await Deno.writeTextFile(script, probe);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", ...flags, script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.ok(text, new TextDecoder().decode(out.stderr));
    const result = JSON.parse(text);
    assert.deepEqual(result, {
      outside: "NotCapable",
      etc: "NotCapable",
      inside: "ok",
      run: "NotCapable",
      uptime: true,
    });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(outside);
  }
});
