/**
 * The ADMIN-only logs through the log monitor (`plugins/logmonitor/access.ts`): `errors.log`
 * (the stacks of unexpected errors) is listed, downloaded, searched and tailed for ADMIN only;
 * its live lines reach ADMIN clients only, and it raises no alert.
 */
import assert from "node:assert/strict";
import { createHost } from "../../../lib/host/mod.ts";
import {
  createLogMonitorPlugin,
  isAdminOnlyLog,
  readableLogs,
} from "../../../plugins/logmonitor/mod.ts";
import { json, openWs, waitFor } from "../../lib/host/_helpers.ts";
import { logLine, startLogHost } from "./_host.ts";
import { serveHostApp } from "../../_web.ts";

const BASE = "/plugin/logmonitor";
const STACK = logLine("ERROR", "ref 0a1b2c3d: GET /x", "localbench.host") +
  "    TypeError: boom\n    at run (file:///srv/app/secret.ts:3:9)\n";

Deno.test("isAdminOnlyLog() and readableLogs() keep errors.log, by name or real path, for ADMIN", () => {
  assert.equal(isAdminOnlyLog({ name: "errors.log" }), true);
  assert.equal(isAdminOnlyLog({ name: "copy.log", path: "/data/logs/errors.log" }), true);
  assert.equal(isAdminOnlyLog({ name: "host.log" }), false);
  const files = [{ name: "errors.log" }, { name: "host.log" }];
  assert.deepEqual(readableLogs(["STATUS", "CONTROL", "SETTINGS"], files), [{ name: "host.log" }]);
  assert.deepEqual(readableLogs(["ADMIN"], files), files);
});

Deno.test("a STATUS user can neither list, download, search nor tail errors.log; ADMIN can", async () => {
  const t = await startLogHost({ "errors.log": STACK, "app.log": logLine("INFO", "hello") });
  try {
    await t.host.users.addUser("all-but-admin", "pass-word-1", [
      "STATUS",
      "CONTROL",
      "CONNECTION",
      "SETTINGS",
    ]);
    const allButAdmin = await t.host.users.createKey("all-but-admin");
    for (const key of [t.keys.STATUS, allButAdmin]) {
      const names = (await (await t.request(`${BASE}/files`, { key })).json()).files
        .map((f: { name: string }) => f.name);
      assert.ok(names.includes("app.log") && !names.includes("errors.log"), String(names));
      for (
        const [path, init] of [
          [`${BASE}/download/errors.log`, {}],
          [`${BASE}/search?file=errors.log&query=secret`, {}],
          [`${BASE}/stream/start`, json("POST", { file: "errors.log" })],
        ] as const
      ) {
        const res = await t.request(path, { ...init, key });
        assert.equal(res.status, 403, path);
        assert.deepEqual(await res.json(), {
          error: "Permission ADMIN required to read errors.log",
          code: "admin_only_log",
        });
      }
    }
    // A multi-stream start of a user without ADMIN fails for errors.log alone.
    const control = await (await t.request(`${BASE}/stream/multi/start`, {
      ...json("POST", { files: ["errors.log", "app.log"] }),
      key: allButAdmin,
    })).json();
    assert.deepEqual(control.started, ["app.log"]);
    assert.deepEqual(control.failed, [{
      file: "errors.log",
      error: "Permission ADMIN required to read errors.log",
    }]);

    const admin = t.keys.ADMIN;
    const names = (await (await t.request(`${BASE}/files`, { key: admin })).json()).files
      .map((f: { name: string }) => f.name);
    assert.ok(names.includes("errors.log"));
    assert.equal(
      await (await t.request(`${BASE}/download/errors.log`, { key: admin })).text(),
      STACK,
    );
    const found = await (await t.request(`${BASE}/search?file=errors.log&query=secret`, {
      key: admin,
    })).json();
    assert.equal(found.results.length, 1);
    assert.match(found.results[0].message, /secret\.ts:3:9/);
    const started = await t.request(`${BASE}/stream/start`, {
      ...json("POST", { file: "errors.log" }),
      key: admin,
    });
    assert.equal(started.status, 200);
    assert.match((await started.json()).initial_lines[0].message, /secret\.ts/);
  } finally {
    await t.close();
  }
});

Deno.test("a link to errors.log under another name is ADMIN-only too", async () => {
  const t = await startLogHost({ "errors.log": STACK });
  try {
    await Deno.symlink(`${t.logDir}/errors.log`, `${t.logDir}/innocent.log`);
    const res = await t.request(`${BASE}/download/innocent.log`, { key: t.keys.STATUS });
    assert.equal(res.status, 403);
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("live lines of errors.log reach ADMIN clients only and raise no alert", async () => {
  const dir = await Deno.makeTempDir();
  const host = createHost({ plugins: [createLogMonitorPlugin({ pollMs: 25 })], dataDir: dir });
  await Deno.mkdir(host.paths.logDir, { recursive: true });
  for (const name of ["errors.log", "app.log"]) {
    await Deno.writeTextFile(`${host.paths.logDir}/${name}`, "");
  }
  const s = await serveHostApp(host, { pages: false });
  await host.users.addUser("viewer", "viewer-pass", ["STATUS"]);
  const statusKey = await host.users.createKey("viewer");
  const url = `ws://127.0.0.1:${s.port}/push`;
  const adminWs = await openWs(url, { "X-Api-Key": s.adminKey! });
  const statusWs = await openWs(url, { "X-Api-Key": statusKey });
  try {
    await host.settings.updateMany({ logmonitor: { alerts_monitor_mode: "all" } });
    const api = (path: string) =>
      fetch(`http://127.0.0.1:${s.port}${BASE}${path}`, { headers: { "X-Api-Key": s.adminKey! } })
        .then((r) => r.json());
    const status = await waitFor(async () => {
      const status = await api("/alerts/monitor/status");
      return status.active_logs.includes("app.log") && status;
    }, "the alert monitor on every file");
    assert.ok(!status.configured_logs.includes("errors.log"), JSON.stringify(status));
    assert.ok(!status.active_logs.includes("errors.log"), JSON.stringify(status));
    const started = await fetch(
      `http://127.0.0.1:${s.port}${BASE}/stream/multi/start`,
      json("POST", { files: ["errors.log", "app.log"] }, { "X-Api-Key": s.adminKey! }),
    );
    assert.deepEqual((await started.json()).started, ["errors.log", "app.log"]);
    const append = (name: string, text: string) =>
      Deno.writeTextFile(`${host.paths.logDir}/${name}`, text, { append: true });
    await append("errors.log", STACK);
    await append("app.log", logLine("ERROR", "app failed"));
    type Msg = { plugin?: { data: { type: string; data?: { message: string }[] } } };
    const text = (messages: unknown[]) =>
      (messages as Msg[]).filter((m) => m.plugin?.data.type === "log_lines")
        .flatMap((m) => m.plugin!.data.data!.map((l) => l.message)).join("\n");
    await waitFor(
      () => /secret\.ts/.test(text(adminWs.messages)) && /app failed/.test(text(adminWs.messages)),
      {
        what: "both files' lines for ADMIN",
      },
    );
    await waitFor(() => /app failed/.test(text(statusWs.messages)), { what: "app.log for STATUS" });
    assert.doesNotMatch(text(statusWs.messages), /secret|ref 0a1b2c3d/);
    await waitFor(async () => (await api("/alerts")).counts.ERROR === 1, "app.log's alert");
    const history = (await api("/alert-history")).history as { message: string }[];
    assert.doesNotMatch(JSON.stringify(history), /secret|0a1b2c3d/, "errors.log raised no alert");
  } finally {
    await adminWs.close();
    await statusWs.close();
    await s.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
