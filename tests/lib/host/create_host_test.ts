/**
 * The start-up order of the plugin host (`createHost().start()`): stored settings are read,
 * migrated (and written back) and validated before any plugin starts. A refused stored value is
 * reported once, by name; the other values still apply. (The launcher's scope from the same
 * settings: launch_test.ts.)
 */
import assert from "node:assert/strict";
import * as v from "valibot";
import { createHost } from "../../../lib/host/mod.ts";
import type { PluginDescriptor } from "../../../lib/host/plugin.ts";
import { integer, text } from "../../../lib/schema/mod.ts";
import { plugin as branchplus } from "../../../plugins/branchplus/mod.ts";
import { createTempEtaPlugin } from "../../../plugins/temp_eta/mod.ts";
import { capture, FakeClock, json, withConfig } from "./_helpers.ts";
import { hostWebApp } from "../../_web.ts";

const demo: PluginDescriptor = {
  id: "demo",
  name: "Demo",
  version: "1",
  settingsVersion: 1,
  settingsSchema: v.strictObject({
    interval: v.optional(integer({ min: 1, max: 60 }), 5),
    name: v.optional(text({ maxLength: 1024 }), "x"),
  }),
};

Deno.test("a stored value the plugin refuses is reported once by name and the other values still apply", async () => {
  await withConfig(
    "plugins:\n  demo:\n    _version: 1\n    interval: -4\n    name: kept\n",
    async (dir) => {
      const { lines, logger } = capture();
      const host = createHost({ plugins: [demo], dataDir: dir, logger });
      await host.start();
      try {
        assert.deepEqual(host.settings.get("demo"), { interval: 5, name: "kept" });
        const reports = lines.filter((l) => l.line.includes("'interval'"));
        assert.equal(reports.length, 1);
        assert.equal(reports[0]!.level, "warn");
        assert.match(reports[0]!.line, /Ignoring stored setting 'interval' of demo/);
      } finally {
        await host.stop();
      }
    },
  );
});

Deno.test("a refused field of one stored channel is dropped alone: the other channels keep theirs", async () => {
  const yaml = [
    "plugins:",
    "  branchplus:",
    "    _version: 1",
    "    host: hub.local",
    "    channels:",
    "      - { kind: usb, id: 1, label: Lamp, mode: manual, manual_on: true }",
    "      - { kind: usb, id: 2, label: Fan, mode: sideways }",
    "",
  ].join("\n");
  await withConfig(yaml, async (dir) => {
    const { lines, logger } = capture();
    const host = createHost({ plugins: [branchplus], dataDir: dir, logger });
    await host.start();
    try {
      const s = host.settings.get("branchplus") as {
        host: string;
        channels: { label: string; mode: string; manual_on: boolean }[];
      };
      assert.equal(s.host, "hub.local");
      assert.deepEqual([s.channels[0]!.label, s.channels[0]!.mode, s.channels[0]!.manual_on], [
        "Lamp",
        "manual",
        true,
      ]);
      assert.deepEqual([s.channels[1]!.label, s.channels[1]!.mode], ["Fan", "auto"]);
      const reports = lines.filter((l) => l.level === "warn" && l.line.includes("channels[1]"));
      assert.equal(reports.length, 1);
    } finally {
      await host.stop();
    }
  });
});

Deno.test("the Temperature ETA plugin runs with its stored settings from the first start, with no false error", async () => {
  const yaml = [
    "plugins:",
    "  temp_eta:",
    "    _version: 2",
    "    algorithm: exponential",
    "    time_format: hms",
    "",
  ].join("\n");
  await withConfig(yaml, async (dir) => {
    const { lines, logger } = capture();
    const host = createHost({
      plugins: [createTempEtaPlugin()],
      dataDir: dir,
      logger,
      clock: new FakeClock(),
    });
    const { adminKey } = await host.start();
    try {
      const res = await hostWebApp(host).request("/api/plugin/temp_eta", {
        headers: { "X-Api-Key": adminKey! },
      });
      const body = await res.json();
      assert.equal(body.algorithm, "exponential");
      assert.equal(body.time_format, "hms");
      const bad = lines.filter((l) => l.level === "warn" || l.level === "error");
      assert.deepEqual(bad, []);
    } finally {
      await host.stop();
    }
  });
});

Deno.test("a clean first start logs no warning and no error", async () => {
  await withConfig(null, async (dir) => {
    const { lines, logger } = capture();
    const host = createHost({
      plugins: [createTempEtaPlugin(), branchplus],
      dataDir: dir,
      logger,
      clock: new FakeClock(),
    });
    await host.start();
    await host.ready();
    await host.stop();
    assert.deepEqual(lines.filter((l) => l.level === "warn" || l.level === "error"), []);
  });
});

Deno.test("saving a refused value still answers 400 naming the setting (nothing is dropped on save)", async () => {
  await withConfig(null, async (dir) => {
    const host = createHost({ plugins: [demo], dataDir: dir, logger: capture().logger });
    const { adminKey } = await host.start();
    try {
      const res = await hostWebApp(host).request("/api/settings", {
        ...json("POST", { plugins: { demo: { interval: 0, name: "y" } } }),
        headers: { "X-Api-Key": adminKey!, "Content-Type": "application/json" },
      });
      assert.equal(res.status, 400);
      assert.match((await res.json()).error, /'interval'/);
      assert.equal(host.settings.get("demo").name, "x");
    } finally {
      await host.stop();
    }
  });
});
