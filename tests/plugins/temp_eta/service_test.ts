import assert from "node:assert/strict";
import { createTempEtaPlugin } from "../../../plugins/temp_eta/mod.ts";
import { TempEtaService } from "../../../plugins/temp_eta/service.ts";
import { DEFAULTS } from "../../../plugins/temp_eta/schema.ts";
import { settingsDefaults } from "../../../lib/host/settings/validate.ts";
import { type FakeContext, fakeContext, fakeFactory, flush } from "./fakes.ts";

/** Emits one reading per heater every 500 ms for `seconds`, advancing the clock with it. */
function heat(
  f: FakeContext,
  seconds: number,
  readings: (t: number) => Record<string, [number, number]>,
) {
  for (let i = 1; i <= seconds * 2; i++) {
    const t = i / 2;
    const temps = Object.fromEntries(
      Object.entries(readings(t)).map(([h, [actual, target]]) => [h, { actual, target }]),
    );
    f.printer.emit(f.printer.time + 500, temps);
    f.clock.advance(500);
  }
}

function updates(f: FakeContext, heater?: string) {
  return f.pushes.filter((p) => p.type === "eta_update" && (!heater || p.heater === heater));
}

Deno.test("TempEtaService pushes eta_update per heater on the calculation timer", async () => {
  const f = fakeContext({ show_percentage: true });
  f.printer.temperatures = { tool0: { actual: 20, target: 0 }, bed: { actual: 20, target: 0 } };
  const service = new TempEtaService(f.ctx);
  service.start();
  heat(f, 30, (t) => ({ tool0: [20 + 2 * t, 200], bed: [20 + 0.5 * t, 60] }));
  const first = updates(f, "tool0")[0]!;
  assert.equal(first.state, "calculating");
  const last = updates(f, "tool0").at(-1)!;
  assert.equal(last.state, "heating");
  assert.equal(last.eta_kind, "heating");
  // 2 °C/s, reached at 199 °C: no sooner than at that rate, plus a hot end's PID braking before
  // the target.
  const steady = (199 - (last.actual as number)) / 2;
  const eta = last.eta_seconds as number;
  assert.ok(eta >= steady && eta < steady + 45, `eta ${eta} vs ${steady} at a steady rate`);
  // Progress from 21 °C (the first heating reading) to 200 °C.
  const percent = Math.round(((last.actual as number) - 21) / 179 * 100);
  const display = last.display as Record<string, string>;
  assert.match(display.eta!, /^\d+s$|^\d\.\dm$/);
  assert.deepEqual({ ...display, eta: "" }, {
    eta: "",
    rate: "+2.00°C/s",
    percentage: `${percent}%`,
  });
  // Published once per update_interval (1 s) per heater over 30 s, plus changes.
  const count = updates(f, "bed").length;
  assert.ok(count >= 30 && count <= 32, `bed published ${count} times`);
  const status = service.status();
  assert.deepEqual(status.heaters.map((h) => h.heater), ["tool0", "bed"]);
  assert.equal(status.enabled, true);
  assert.equal(status.mqtt_enabled, false);
  assert.equal(status.mqtt_connected, false);
  await service.stop();
  assert.deepEqual(f.clock.pendingDelays(), []);
  assert.equal(f.printer.listeners.size, 0);
});

Deno.test("TempEtaService pushes eta_alert when a heater reaches its target", async () => {
  const f = fakeContext({ heating_sound_enabled: true });
  const service = new TempEtaService(f.ctx);
  service.start();
  heat(f, 6, (t) => ({ tool0: [Math.min(200, 180 + 4 * t), 200] }));
  const alerts = f.pushes.filter((p) => p.type === "eta_alert");
  assert.equal(alerts.length, 1);
  assert.equal(alerts[0]!.event, "heating_done");
  assert.equal(alerts[0]!.message, "Tool0: reached 200°C");
  assert.equal(alerts[0]!.sound_url, "/plugin/temp_eta/static/sounds/heating_done.wav");
  await service.stop();
});

Deno.test("TempEtaService follows settings changes: timers, disable and enable", async () => {
  const f = fakeContext();
  const service = new TempEtaService(f.ctx);
  service.start();
  assert.deepEqual(f.clock.pendingDelays(), [500, 5000]);
  await f.settings.update({ calculation_interval: 0.25, cleanup_interval: 2 });
  assert.deepEqual(f.clock.pendingDelays(), [250, 2000]);
  assert.ok(f.pushes.some((p) => p.type === "settings_changed"));
  await f.settings.update({ cooling_sound_enabled: true, show_in_navbar: true });
  const ui = f.pushes.filter((p) => p.type === "settings_changed").at(-1)!.ui as Record<
    string,
    unknown
  >;
  assert.equal(ui.show_in_navbar, true);
  assert.equal(ui.cooling_sound_url, "/plugin/temp_eta/static/sounds/cooling_done.wav");
  await f.settings.update({ algorithm: "exponential" });
  assert.equal(
    f.pushes.filter((p) => p.type === "settings_changed").at(-1)!.algorithm,
    "exponential",
  );
  await f.settings.update({ enabled: false });
  assert.deepEqual(f.clock.pendingDelays(), []);
  assert.equal(f.printer.listeners.size, 0);
  f.pushes.length = 0;
  heat(f, 2, (t) => ({ tool0: [20 + t, 200] }));
  assert.equal(updates(f).length, 0);
  assert.deepEqual(service.status().heaters, []);
  await f.settings.update({ enabled: true });
  heat(f, 2, (t) => ({ tool0: [20 + t, 200] }));
  assert.ok(updates(f).length > 0);
  await service.stop();
});

Deno.test("TempEtaService applies TEMP_ETA_ environment overrides from the context", async () => {
  const f = fakeContext({}, { TEMP_ETA_ALGORITHM: "exponential", TEMP_ETA_MIN_RATE: "9" });
  const service = new TempEtaService(f.ctx);
  // The stored settings (and the overrides) are read at the start, after the host loaded them.
  service.start();
  assert.equal(service.settings.algorithm, "exponential");
  assert.equal(service.settings.min_rate, 0.1);
  assert.deepEqual(service.status().env_overrides, ["algorithm"]);
  assert.ok(f.logs.some((l) => l.includes("TEMP_ETA_MIN_RATE ignored")));
  // The override survives a settings change.
  await f.settings.update({ algorithm: "linear" });
  assert.equal(service.settings.algorithm, "exponential");
  await service.stop();
});

Deno.test("TempEtaService writes debug lines only with debug_logging", async () => {
  const quiet = fakeContext();
  const s1 = new TempEtaService(quiet.ctx);
  s1.start();
  heat(quiet, 6, (t) => ({ tool0: [Math.min(200, 180 + 4 * t), 200] }));
  assert.ok(!quiet.logs.some((l) => l.includes("debug:")));
  await s1.stop();
  const loud = fakeContext({}, { TEMP_ETA_DEBUG: "1" });
  const s2 = new TempEtaService(loud.ctx);
  s2.start();
  heat(loud, 6, (t) => ({ tool0: [Math.min(200, 180 + 4 * t), 200] }));
  assert.ok(loud.logs.some((l) => l.includes("debug: tool0: calculating → at_target")));
  await s2.stop();
});

Deno.test("TempEtaService publishes over MQTT and reports the connection", async () => {
  const { clients, factory } = fakeFactory();
  const f = fakeContext({ mqtt_enabled: true, mqtt_broker: "127.0.0.1", mqtt_port: 1884 });
  const service = new TempEtaService(f.ctx, { factory });
  service.start();
  await flush();
  assert.equal(clients.length, 1);
  assert.equal(clients[0]!.url, "mqtt://127.0.0.1:1884");
  assert.equal(service.status().mqtt_connected, false);
  clients[0]!.acceptConnection();
  heat(f, 40, (t) => ({ tool0: [20 + 2 * t, 200] }));
  assert.equal(service.status().mqtt_connected, true);
  const topics = new Set(clients[0]!.published.map((p) => p.topic));
  assert.deepEqual([...topics], [
    "localbench/temp_eta/status",
    "localbench/temp_eta/tool0",
    "localbench/temp_eta/tool0/state_change",
  ]);
  await f.settings.update({ enabled: false });
  assert.equal(service.status().mqtt_enabled, false);
  await flush();
  assert.ok(clients[0]!.ended);
  await service.stop();
});

Deno.test("the descriptor declares id, version 2 settings, secrets, env and network needs", async () => {
  const plugin = createTempEtaPlugin();
  assert.equal(plugin.id, "temp_eta");
  assert.equal(plugin.settingsVersion, 2);
  assert.deepEqual(plugin.restrictedSettings, ["mqtt_password"]);
  assert.deepEqual(plugin.envVars, ["TEMP_ETA_ALGORITHM", "TEMP_ETA_MIN_RATE", "TEMP_ETA_DEBUG"]);
  assert.deepEqual(plugin.networkHosts!(DEFAULTS), []);
  assert.deepEqual(
    plugin.networkHosts!({ ...DEFAULTS, mqtt_enabled: true, mqtt_port: 8883 }),
    ["localhost:8883"],
  );
  assert.equal(settingsDefaults(plugin).algorithm, "linear");
  assert.equal(plugin.migrateSettings!({ threshold_start: 2 }, 1).heating_threshold, 2);
  const f = fakeContext();
  const instance = plugin.create!(f.ctx);
  assert.deepEqual(instance.routes!.map((r) => r.base), [
    "/api/plugin/temp_eta",
    "/plugin/temp_eta/static",
  ]);
  await instance.start!();
  assert.deepEqual(f.clock.pendingDelays(), [500, 5000]);
  await instance.stop!({ planned: false });
  assert.deepEqual(f.clock.pendingDelays(), []);
});
