/**
 * The plugin mounted in the real host (createHost): printer → ETA → status route, the settings
 * store endpoints (validation, reset, migration from version 1) and the sounds route.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createHost } from "../../../lib/host/mod.ts";
import { createLogger } from "../../../lib/log.ts";
import { createTempEtaPlugin } from "../../../plugins/temp_eta/mod.ts";
import { ManualClock } from "./fakes.ts";
import { hostWebApp } from "../../_web.ts";

async function hostWith(configYaml?: string) {
  const dataDir = await Deno.makeTempDir({ prefix: "temp_eta_host_" });
  if (configYaml !== undefined) {
    await Deno.mkdir(join(dataDir, "host"), { recursive: true });
    await Deno.writeTextFile(join(dataDir, "host", "config.yaml"), configYaml);
  }
  const clock = new ManualClock();
  const host = createHost({
    plugins: [createTempEtaPlugin()],
    dataDir,
    clock,
    env: { TEMP_ETA_DEBUG: "1", UNRELATED: "x" },
    logger: createLogger("test.host", { sink: () => {} }),
  });
  const { adminKey } = await host.start();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await hostWebApp(host).request(path, {
      method,
      headers: { "X-Api-Key": adminKey!, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = res.headers.get("content-type") ?? "";
    return {
      status: res.status,
      body: type.includes("json") ? await res.json() : await res.arrayBuffer(),
    };
  }; // deno-fmt-ignore
  return {
    host,
    clock,
    call,
    async [Symbol.asyncDispose]() {
      await host.stop();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("the host runs the plugin: the virtual printer heats and the ETA shows up", async () => {
  await using h = await hostWith();
  const set = await h.call("POST", "/api/printer/tool", {
    command: "target",
    targets: { tool0: 210 },
  });
  assert.equal(set.status < 300, true, JSON.stringify(set.body));
  h.clock.advance(40_000);
  const res = await h.call("GET", "/api/plugin/temp_eta");
  assert.equal(res.status, 200);
  const tool0 = res.body.heaters.find((x: { heater: string }) => x.heater === "tool0");
  assert.equal(tool0.state, "heating");
  assert.ok(tool0.eta_seconds > 0);
  assert.equal(res.body.mqtt_enabled, false);
  assert.deepEqual(res.body.env_overrides, ["debug_logging"]);
  const bed = res.body.heaters.find((x: { heater: string }) => x.heater === "bed");
  assert.equal(bed.state, "cooled_down");
  const unauthenticated = await hostWebApp(h.host).request("/api/plugin/temp_eta");
  assert.equal(unauthenticated.status, 401);
});

Deno.test("the host's settings store validates, saves and resets the plugin's settings", async () => {
  await using h = await hostWith();
  const bad = await h.call("POST", "/api/settings", { plugins: { temp_eta: { min_rate: 5 } } });
  assert.equal(bad.status, 400);
  assert.match(
    JSON.stringify(bad.body),
    /Setting 'min_rate' must be a number between 0.01 and 1.0: got 5/,
  );
  const ok = await h.call("POST", "/api/settings", {
    plugins: { temp_eta: { algorithm: "exponential", mqtt_username: "u", mqtt_password: "p" } },
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.plugins.temp_eta.algorithm, "exponential");
  assert.equal(ok.body.plugins.temp_eta.mqtt_password, undefined, "secret not returned");
  assert.equal((await h.call("GET", "/api/plugin/temp_eta")).body.algorithm, "exponential");
  const reset = await h.call("DELETE", "/api/settings/plugins/temp_eta");
  assert.equal(reset.status, 200);
  assert.equal(reset.body.plugins.temp_eta.algorithm, "linear");
  assert.equal((await h.call("GET", "/api/plugin/temp_eta")).body.algorithm, "linear");
});

Deno.test("the host migrates version 1 settings from config.yaml", async () => {
  const yaml = "plugins:\n  temp_eta:\n    threshold_start: 3\n    mqtt_base_topic: shop/eta\n";
  await using h = await hostWith(yaml);
  const res = await h.call("GET", "/api/settings");
  assert.equal(res.body.plugins.temp_eta.heating_threshold, 3);
  assert.equal(res.body.plugins.temp_eta.mqtt_topic_prefix, "shop/eta");
  const stored = await Deno.readTextFile(h.host.paths.configFile);
  assert.doesNotMatch(stored, /threshold_start/);
});

Deno.test("the host serves the plugin's sounds behind authentication", async () => {
  await using h = await hostWith();
  const res = await h.call("GET", "/plugin/temp_eta/static/sounds/cooling_done.wav");
  assert.equal(res.status, 200);
  assert.ok((res.body as ArrayBuffer).byteLength > 44);
  const anonymous = await hostWebApp(h.host).request(
    "/plugin/temp_eta/static/sounds/cooling_done.wav",
  );
  assert.equal(anonymous.status, 401);
});
