import assert from "node:assert/strict";
import { createHost } from "../../../lib/host/mod.ts";
import { createLogMonitorPlugin } from "../../../plugins/logmonitor/mod.ts";
import { json, openWs, waitFor, type WsClient } from "../../lib/host/_helpers.ts";
import { logLine } from "./_host.ts";
import { CUT_MARK, MAX_ENTRY_CHARS } from "../../../plugins/logmonitor/entries.ts";
import { MAX_PUSH_CHARS } from "../../../plugins/logmonitor/streams.ts";
import { hostWebApp, serveHostApp } from "../../_web.ts";

type Msg = {
  plugin?: {
    plugin: string;
    data:
      & { type: string; data?: { message: string; _source_file?: string }[] }
      & Record<string, unknown>;
  };
};

async function live() {
  const dir = await Deno.makeTempDir();
  const host = createHost({ plugins: [createLogMonitorPlugin({ pollMs: 25 })], dataDir: dir });
  await Deno.mkdir(host.paths.logDir, { recursive: true });
  await Deno.writeTextFile(`${host.paths.logDir}/app.log`, logLine("INFO", "before"));
  const s = await serveHostApp(host, { pages: false });
  const base = `http://127.0.0.1:${s.port}`;
  const ws = await openWs(`ws://127.0.0.1:${s.port}/push`, { "X-Api-Key": s.adminKey! });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(
      `${base}/plugin/logmonitor${path}`,
      json("POST", body, { "X-Api-Key": s.adminKey! }),
    );
    return await res.json();
  };
  const lines = (c: WsClient) =>
    (c.messages as Msg[]).filter((m) => m.plugin?.data.type === "log_lines").flatMap((m) =>
      m.plugin!.data.data!
    );
  return {
    host,
    ws,
    post,
    lines: () => lines(ws),
    alerts: () =>
      (ws.messages as Msg[]).filter((m) => m.plugin?.data.type === "severity_alert").map((m) =>
        m.plugin!
      ),
    append: (name: string, text: string) =>
      Deno.writeTextFile(`${host.paths.logDir}/${name}`, text, { append: true }),
    async close() {
      await ws.close();
      await s.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("the push socket delivers log_lines after a line is appended to a streamed file", async () => {
  const t = await live();
  try {
    const start = await t.post("/stream/start", { file: "app.log" });
    assert.equal(start.initial_lines[0].message, "before");
    await t.append("app.log", logLine("INFO", "appended one") + logLine("DEBUG", "appended two"));
    const got = await waitFor(() => t.lines().length >= 2 && t.lines());
    assert.deepEqual(got.map((l) => l.message), ["appended one", "appended two"]);
    const msg = (t.ws.messages as Msg[]).find((m) => m.plugin?.data.type === "log_lines")!;
    assert.equal(msg.plugin!.plugin, "logmonitor");
  } finally {
    await t.close();
  }
});

Deno.test("the push socket delivers severity_alert for a WARNING line in a monitored file", async () => {
  const t = await live();
  try {
    await t.host.settings.updateMany({
      logmonitor: { alerts_monitored_logs: ["app.log"], enable_notifications: true },
    });
    await waitFor(async () =>
      (await (await hostWebApp(t.host).request("/plugin/logmonitor/alerts/monitor/status", {
        headers: { "X-Api-Key": await t.host.users.createKey("admin") },
      })).json()).active_logs.includes("app.log")
    );
    await t.append("app.log", logLine("INFO", "fine") + logLine("WARNING", "Disk almost full"));
    const [alert] = await waitFor(() => t.alerts().length >= 1 && t.alerts());
    assert.equal(alert!.plugin, "logmonitor");
    assert.deepEqual(alert!.data, {
      type: "severity_alert",
      level: "WARNING",
      count: 1,
      message: "Disk almost full",
      notification_enabled: true,
      source_file: "app.log",
    });
  } finally {
    await t.close();
  }
});

Deno.test("a live tail survives a rotation and streams the new file's lines", async () => {
  const t = await live();
  try {
    await t.post("/stream/start", { file: "app.log" });
    await t.append("app.log", logLine("INFO", "old file line"));
    await waitFor(() => t.lines().some((l) => l.message === "old file line"));
    const dir = t.host.paths.logDir;
    await Deno.rename(`${dir}/app.log`, `${dir}/app.log.1`);
    await Deno.writeTextFile(`${dir}/app.log`, logLine("INFO", "new file line"));
    await waitFor(() => t.lines().some((l) => l.message === "new file line"));
    await t.append("app.log", logLine("ERROR", "after rotation"));
    await waitFor(() => t.lines().some((l) => l.message === "after rotation"));
  } finally {
    await t.close();
  }
});

Deno.test("multi-stream lines carry their source file and stop when the streams stop", async () => {
  const t = await live();
  try {
    await t.append("b.log", "");
    await t.post("/stream/multi/start", { files: ["app.log", "b.log"] });
    await t.append("b.log", logLine("INFO", "from b"));
    const got = await waitFor(() => t.lines().find((l) => l.message === "from b"));
    assert.equal(got._source_file, "b.log");
    await t.post("/stream/multi/stop", { stop_all: true });
    const n = t.lines().length;
    await t.append("b.log", logLine("INFO", "ignored"));
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(t.lines().length, n);
  } finally {
    await t.close();
  }
});

Deno.test("streamed lines are masked when mask_log_content is on", async () => {
  const t = await live();
  try {
    await t.host.settings.updateMany({ logmonitor: { mask_log_content: true } });
    await t.post("/stream/start", { file: "app.log" });
    await t.append("app.log", logLine("INFO", "login password=hunter2"));
    const got = await waitFor(() => t.lines()[0]);
    assert.equal(got.message, "login password: [REDACTED]");
  } finally {
    await t.close();
  }
});

type Entry = { message: string; level: string; _source_file?: string; continuation?: true };
type LiveMsg = { plugin?: { data: { type: string; data?: Entry[] } & Record<string, unknown> } };

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
    (ws.messages as LiveMsg[]).filter((m) => m.plugin?.data.type === type).map((m) =>
      m.plugin!.data
    );
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

Deno.test("a long line appended to a streamed file arrives cut with the search's marker", async () => {
  const t = await live();
  try {
    await t.post("/stream/start", { file: "app.log" });
    const long = logLine("ERROR", "y".repeat(5 * 1024 * 1024));
    await t.append("app.log", long + logLine("INFO", "short after"));
    const got = await waitFor(() => t.lines().length >= 2 && t.lines());
    const head = logLine("ERROR", "");
    assert.equal(got[0]!.message, "y".repeat(MAX_ENTRY_CHARS - head.length + 1) + CUT_MARK);
    assert.equal(got[1]!.message, "short after");
  } finally {
    await t.close();
  }
});

Deno.test("a burst of long entries is pushed newest first within the message limit, counting the rest", async () => {
  const t = await live();
  try {
    await t.post("/stream/start", { file: "app.log" });
    const n = 120;
    const burst = Array.from(
      { length: n },
      (_, i) => logLine("INFO", `${i} ${"w".repeat(15_000)}`),
    );
    await t.append("app.log", burst.join(""));
    const messages = () =>
      (t.ws.messages as Msg[]).filter((m) => m.plugin?.data.type === "log_lines").map((m) =>
        m.plugin!.data
      );
    const counted = () =>
      messages().reduce((sum, m) => sum + m.data!.length + Number(m.skipped ?? 0), 0);
    await waitFor(() => counted() >= n, "every entry pushed or counted");
    assert.equal(counted(), n);
    for (const m of messages()) {
      const chars = m.data!.reduce((sum, e) => sum + 2 * e.message.length, 0);
      assert.ok(chars <= MAX_PUSH_CHARS, `a message of ${chars} characters`);
    }
    assert.ok(messages().some((m) => Number(m.skipped) > 0), "the older entries were counted");
    assert.match(t.lines().at(-1)!.message, /^119 /, "the newest entry is always sent");
  } finally {
    await t.close();
  }
});
