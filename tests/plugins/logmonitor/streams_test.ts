import assert from "node:assert/strict";
import { createHost } from "../../../lib/host/mod.ts";
import { createLogMonitorPlugin } from "../../../plugins/logmonitor/mod.ts";
import { json, openWs, waitFor, type WsClient } from "../../lib/host/_helpers.ts";
import { logLine } from "./_host.ts";
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
