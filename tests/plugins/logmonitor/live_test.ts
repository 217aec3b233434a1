import assert from "node:assert/strict";
import { createHost } from "../../../lib/host/mod.ts";
import { createLogMonitorPlugin } from "../../../plugins/logmonitor/mod.ts";
import { json, openWs, waitFor } from "../../lib/host/_helpers.ts";
import { logLine } from "./_host.ts";
import { serveHostApp } from "../../_web.ts";

type Entry = { message: string; level: string; _source_file?: string; continuation?: true };
type Msg = { plugin?: { data: { type: string; data?: Entry[] } & Record<string, unknown> } };

/** A served host with the log monitor's defaults (5 s poll interval, file watching on). */
async function served() {
  const dir = await Deno.makeTempDir();
  const host = createHost({ plugins: [createLogMonitorPlugin()], dataDir: dir });
  const logDir = host.paths.logDir;
  await Deno.mkdir(logDir, { recursive: true });
  await Deno.writeTextFile(`${logDir}/app.log`, logLine("INFO", "before"));
  const s = await serveHostApp(host, { pages: false });
  const ws = await openWs(`ws://127.0.0.1:${s.port}/push`, { "X-Api-Key": s.adminKey! });
  const call = async (path: string, body: unknown) => {
    const res = await fetch(
      `http://127.0.0.1:${s.port}/plugin/logmonitor${path}`,
      json("POST", body, { "X-Api-Key": s.adminKey! }),
    );
    return { status: res.status, body: await res.json() };
  };
  const of = (type: string) =>
    (ws.messages as Msg[]).filter((m) => m.plugin?.data.type === type).map((m) => m.plugin!.data);
  return {
    host,
    logDir,
    dir,
    call,
    entries: () => of("log_lines").flatMap((d) => d.data!),
    alerts: () => of("severity_alert"),
    append: (name: string, text: string) =>
      Deno.writeTextFile(`${logDir}/${name}`, text, { append: true }),
    async close() {
      await ws.close();
      await s.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("a new line reaches the live tail within 1 s with the default 5 s poll interval", async () => {
  const t = await served();
  try {
    assert.equal((await t.call("/stream/start", { file: "app.log" })).status, 200);
    for (const n of [1, 2, 3]) {
      const written = performance.now();
      await t.append("app.log", logLine("INFO", `fresh ${n}`));
      await waitFor(() => t.entries().some((e) => e.message === `fresh ${n}`), 1000);
      assert.ok(performance.now() - written < 1000);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a traceback streams and alerts as part of its entry", async () => {
  const t = await served();
  try {
    await t.host.settings.updateMany({
      logmonitor: {
        alerts_monitored_logs: ["app.log"],
        severity_triggers: ["ERROR", "UNKNOWN"],
      },
    });
    await t.call("/stream/start", { file: "app.log" });
    await new Promise((r) => setTimeout(r, 100)); // the monitor restarts on the settings change
    await t.append(
      "app.log",
      logLine("ERROR", "hook failed") +
        'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad\n' +
        logLine("INFO", "next"),
    );
    const entries = await waitFor(() => t.entries().length >= 2 && t.entries(), 2000);
    assert.deepEqual(entries.map((e) => e.level), ["ERROR", "INFO"]);
    assert.equal(
      entries[0]!.message,
      'hook failed\nTraceback (most recent call last):\n  File "x.py", line 1\nValueError: bad',
    );
    const alerts = await waitFor(() => t.alerts().length >= 1 && t.alerts(), 2000);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(t.alerts().map((a) => a.level), ["ERROR"], "no UNKNOWN alert per line");
    assert.match(String(alerts[0]!.message), /ValueError: bad$/);
  } finally {
    await t.close();
  }
});

Deno.test("at most 20 files are tailed at once across requests", async () => {
  const t = await served();
  try {
    const names = Array.from({ length: 25 }, (_, i) => `f${i}.log`);
    for (const n of names) await Deno.writeTextFile(`${t.logDir}/${n}`, "");
    const first = await t.call("/stream/multi/start", { files: names.slice(0, 15) });
    assert.equal(first.body.total_active, 15);
    const second = await t.call("/stream/multi/start", { files: names.slice(10, 25) });
    assert.equal(second.body.total_active, 20);
    assert.deepEqual(second.body.started.length, 10, "5 restarted + 5 new");
    assert.deepEqual(
      second.body.failed.map((f: { file: string; error: string }) => [f.file, f.error]),
      names.slice(20).map((n) => [n, "Too many files tailed (at most 20 at once)"]),
    );
    const single = await t.call("/stream/start", { file: "app.log" });
    assert.equal(single.status, 409);
    await t.call("/stream/multi/stop", { files: ["f0.log"] });
    assert.equal((await t.call("/stream/start", { file: "app.log" })).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("a tailed file swapped for a link to outside is never streamed", async () => {
  const t = await served();
  try {
    const outside = `${t.dir}/secret.log`;
    await Deno.writeTextFile(outside, "TOPSECRET 1\n");
    await t.call("/stream/start", { file: "app.log" });
    await t.append("app.log", logLine("INFO", "own line"));
    await waitFor(() => t.entries().some((e) => e.message === "own line"), 2000);
    await Deno.remove(`${t.logDir}/app.log`);
    await Deno.symlink(outside, `${t.logDir}/app.log`);
    await Deno.writeTextFile(outside, "TOPSECRET 2\n", { append: true });
    await new Promise((r) => setTimeout(r, 600));
    assert.ok(!JSON.stringify(t.entries()).includes("TOPSECRET"));
  } finally {
    await t.close();
  }
});

Deno.test("a refused reopen is logged once, not on every change in the folder", async () => {
  const t = await served();
  try {
    const outside = `${t.dir}/secret.log`;
    await Deno.writeTextFile(outside, "x\n");
    await t.call("/stream/start", { file: "app.log" });
    await Deno.remove(`${t.logDir}/app.log`);
    await Deno.symlink(outside, `${t.logDir}/app.log`);
    for (let i = 0; i < 20; i++) {
      await t.append("other.log", "change\n");
      await new Promise((r) => setTimeout(r, 20));
    }
    const log = await Deno.readTextFile(`${t.logDir}/host.log`);
    const warnings = log.split("\n").filter((l) => l.includes("[SECURITY]")).length;
    assert.ok(warnings >= 1 && warnings <= 2, `${warnings} security warnings`);
  } finally {
    await t.close();
  }
});
