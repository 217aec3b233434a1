import assert from "node:assert/strict";
import { parse } from "yaml";
import * as v from "valibot";
import { createHost, denoConfigFs } from "../../../lib/host/mod.ts";
import type { PluginDescriptor } from "../../../lib/host/plugin.ts";
import { integer, text } from "../../../lib/schema/mod.ts";
import { json, startTestHost } from "./_helpers.ts";
import { hostWebApp } from "../../_web.ts";

function demo(extra: Partial<PluginDescriptor> = {}): PluginDescriptor {
  return {
    id: "demo",
    name: "Demo",
    version: "2",
    settingsVersion: 2,
    settingsSchema: v.strictObject({
      interval: v.optional(integer({ min: 1, max: 60 }), 5),
      name: v.optional(text({ maxLength: 1024 }), "x"),
      password: v.optional(text({ maxLength: 1024 }), ""),
    }),
    restrictedSettings: ["password"],
    migrateSettings(stored, from) {
      if (from < 2 && "old_interval" in stored) {
        const { old_interval, ...rest } = stored;
        return { ...rest, interval: old_interval };
      }
      return stored;
    },
    ...extra,
  };
}

Deno.test("GET /api/settings returns every plugin's settings without restricted keys", async () => {
  const t = await startTestHost({ plugins: [demo()] });
  try {
    await t.host.settings.updateMany({ demo: { password: "hunter2" } });
    const res = await t.request("/api/settings", { key: t.keys.STATUS });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(body.plugins.demo, { interval: 5, name: "x" });
    assert.deepEqual(body.secrets, { demo: { password: true } }, "set, never its value");
    assert.ok(!JSON.stringify(body).includes("hunter2"));
    const cleared = await t.request("/api/settings", {
      ...json("POST", { plugins: { demo: { password: "" } } }),
      key: t.keys.SETTINGS,
    });
    assert.deepEqual((await cleared.json()).secrets, { demo: { password: false } });
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/settings saves valid values with the version and only non-defaults", async () => {
  const t = await startTestHost({ plugins: [demo()] });
  try {
    const res = await t.request("/api/settings", {
      ...json("POST", { plugins: { demo: { interval: 9 } } }),
      key: t.keys.SETTINGS,
    });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).plugins.demo.interval, 9);
    const doc = parse(await Deno.readTextFile(t.host.paths.configFile));
    assert.deepEqual(doc.plugins.demo, { _version: 2, interval: 9 });
    assert.ok(doc.accessControl, "the users section is preserved");
  } finally {
    await t.close();
  }
});

Deno.test("a settings change that comes while the host stops gets 503 with Retry-After, not lost half-way", async () => {
  const t = await startTestHost({ plugins: [demo()] });
  try {
    const stopping = t.host.stop({ planned: true });
    for (
      const init of [json("POST", { plugins: { demo: { interval: 9 } } }), { method: "DELETE" }]
    ) {
      const path = init.method === "DELETE" ? "/api/settings/plugins/demo" : "/api/settings";
      const res = await t.request(path, { ...init, key: t.keys.SETTINGS });
      assert.equal(res.status, 503, path);
      assert.equal(res.headers.get("Retry-After"), "2");
      assert.equal((await res.json()).code, "restarting");
    }
    await stopping;
    const doc = parse(await Deno.readTextFile(t.host.paths.configFile));
    assert.equal(doc.plugins?.demo, undefined, "nothing was saved by the stopping host");
  } finally {
    await t.close().catch(() => {});
  }
});

Deno.test("POST /api/settings: a null keeps the saved value, as in the configuration layers", async () => {
  // The one merge rule (lib/config/merge.ts): a null in the upper layer is skipped.
  const t = await startTestHost({ plugins: [demo()] });
  try {
    await t.host.settings.updateMany({ demo: { interval: 9 } });
    const res = await t.request("/api/settings", {
      ...json("POST", { plugins: { demo: { interval: null, name: "y" } } }),
      key: t.keys.SETTINGS,
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).plugins.demo, { interval: 9, name: "y" });
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/settings rejects an invalid value with a message naming the setting", async () => {
  const t = await startTestHost({ plugins: [demo()] });
  try {
    const before = await Deno.readTextFile(t.host.paths.configFile);
    const res = await t.request(
      "/api/settings",
      json("POST", { plugins: { demo: { interval: 999 } } }),
    );
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /'interval'/);
    assert.equal(await Deno.readTextFile(t.host.paths.configFile), before);
    assert.equal(t.host.settings.get("demo").interval, 5);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/settings rejects unknown plugins, sections and non-object bodies", async () => {
  const t = await startTestHost({ plugins: [demo()] });
  try {
    for (
      const body of [{ plugins: { nope: {} } }, { server: {} }, { plugins: [] }, {
        plugins: { demo: 3 },
      }]
    ) {
      const res = await t.request("/api/settings", json("POST", body));
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  } finally {
    await t.close();
  }
});

Deno.test("DELETE /api/settings/plugins/<id> resets to the defaults and removes the section", async () => {
  const t = await startTestHost({ plugins: [demo()] });
  try {
    await t.host.settings.updateMany({ demo: { interval: 7 } });
    const res = await t.request("/api/settings/plugins/demo", {
      method: "DELETE",
      key: t.keys.SETTINGS,
    });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).plugins.demo.interval, 5);
    const doc = parse(await Deno.readTextFile(t.host.paths.configFile));
    assert.equal(doc.plugins.demo, undefined);
    assert.equal(
      (await t.request("/api/settings/plugins/ghost", { method: "DELETE" })).status,
      404,
    );
  } finally {
    await t.close();
  }
});

Deno.test("settings listeners hear saved changes and resets", async () => {
  const t = await startTestHost({ plugins: [demo()] });
  try {
    const seen: unknown[] = [];
    t.host.contextOf("demo").settings.onChange((next, prev) =>
      seen.push([prev.interval, next.interval])
    );
    await t.host.contextOf("demo").settings.update({ interval: 3 });
    await t.host.settings.reset("demo");
    assert.deepEqual(seen, [[5, 3], [3, 5]]);
  } finally {
    await t.close();
  }
});

Deno.test("stored settings of an older version are migrated through the plugin's hook", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/host`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/host/config.yaml`,
      "plugins:\n  demo:\n    old_interval: 12\nextra: 1\n",
    );
    const host = createHost({ plugins: [demo()], dataDir: dir });
    await host.start();
    assert.equal(host.settings.get("demo").interval, 12);
    const doc = parse(await Deno.readTextFile(`${dir}/host/config.yaml`));
    assert.deepEqual(doc.plugins.demo, { _version: 2, interval: 12 });
    assert.equal(doc.extra, 1);
    await host.stop();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("invalid stored settings fall back to the defaults", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/host`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/host/config.yaml`,
      "plugins:\n  demo:\n    _version: 2\n    interval: -4\n",
    );
    const host = createHost({ plugins: [demo()], dataDir: dir });
    await host.start();
    assert.equal(host.settings.get("demo").interval, 5);
    await host.stop();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a crash while saving settings keeps the old file and the old values", async () => {
  const dir = await Deno.makeTempDir();
  let crash = false;
  try {
    const host = createHost({
      plugins: [demo()],
      dataDir: dir,
      configFs: {
        ...denoConfigFs,
        async writeTextFile(p, text) {
          if (!crash) return await denoConfigFs.writeTextFile(p, text);
          await Deno.writeTextFile(p, text.slice(0, 10));
          throw new Error("power cut");
        },
      },
    });
    const { adminKey } = await host.start();
    await host.settings.updateMany({ demo: { interval: 8 } });
    const before = await Deno.readTextFile(host.paths.configFile);
    crash = true;
    const res = await hostWebApp(host).request("/api/settings", {
      ...json("POST", { plugins: { demo: { interval: 9 } } }, { "X-Api-Key": adminKey! }),
    });
    assert.equal(res.status, 500);
    assert.equal(await Deno.readTextFile(host.paths.configFile), before);
    assert.equal(host.settings.get("demo").interval, 8);
    await host.stop();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
