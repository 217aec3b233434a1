import assert from "node:assert/strict";
import { migrateSettings } from "../../../plugins/temp_eta/migrate.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";

Deno.test("migrateSettings() renames the version 1 keys to version 2", () => {
  const v2 = migrateSettings({
    threshold_start: 3,
    mqtt_broker_host: "broker.lan",
    mqtt_broker_port: 8883,
    mqtt_base_topic: "home/eta",
    mqtt_use_tls: true,
    history_size: 90,
    enable_heating_eta: false,
    enable_cooldown_eta: false,
    cooldown_target_tool0: 55,
    cooldown_target_bed: 35,
    cooldown_target_chamber: 28,
    algorithm: "exponential",
  }, 1);
  assert.deepEqual(v2, {
    heating_threshold: 3,
    mqtt_broker: "broker.lan",
    mqtt_port: 8883,
    mqtt_topic_prefix: "home/eta",
    mqtt_tls_enabled: true,
    history_max_samples: 90,
    heating_enabled: false,
    cooling_enabled: false,
    cooling_target_tool: 55,
    cooling_target_bed: 35,
    cooling_target_chamber: 28,
    algorithm: "exponential",
  });
  assert.equal(validateSettings(v2).heating_threshold, 3);
});

Deno.test("migrateSettings() clamps version 1 numbers into the version 2 ranges", () => {
  const v2 = migrateSettings({ threshold_start: 25, update_interval: 0.1, history_size: 5.4 }, 1);
  assert.deepEqual(v2, { heating_threshold: 10, update_interval: 0.5, history_max_samples: 10 });
});

Deno.test("migrateSettings() drops version 1 defaults that differ from ours", () => {
  const v2 = migrateSettings({ mqtt_broker_host: "", mqtt_base_topic: "octoprint/temp_eta" }, 1);
  assert.deepEqual(v2, {});
  const s = validateSettings(v2);
  assert.equal(s.mqtt_broker, "localhost");
  assert.equal(s.mqtt_topic_prefix, "localbench/temp_eta");
});

Deno.test("migrateSettings() folds master and per-event sound and notification switches", () => {
  assert.deepEqual(
    migrateSettings({
      sound_enabled: true,
      sound_target_reached: true,
      sound_cooldown_finished: false,
      notification_enabled: false,
      notification_target_reached: true,
      notification_cooldown_finished: true,
    }, 1),
    {
      heating_sound_enabled: true,
      cooling_sound_enabled: false,
      heating_notification_enabled: false,
      cooling_notification_enabled: false,
    },
  );
});

Deno.test("migrateSettings() drops version 1 keys without a version 2 meaning", () => {
  const v2 = migrateSettings(
    { show_in_tab: true, mqtt_publish_interval: 2, color_mode: "bands" },
    1,
  );
  assert.deepEqual(v2, {});
});

Deno.test("migrateSettings() lets a key already named for version 2 win over its old name", () => {
  assert.deepEqual(migrateSettings({ threshold_start: 3, heating_threshold: 2 }, 1), {
    heating_threshold: 2,
  });
});

Deno.test("migrateSettings() leaves version 2 settings as they are", () => {
  const stored = { heating_threshold: 2, mqtt_broker: "x" };
  assert.deepEqual(migrateSettings(stored, 2), stored);
});
