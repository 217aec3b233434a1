import assert from "node:assert/strict";
import { alertOf } from "../../../plugins/temp_eta/alerts.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";

Deno.test("alertOf() announces target reached and cooled down by the settings", () => {
  const change = {
    heater: "tool0",
    state: "at_target" as const,
    previous_state: "heating" as const,
    previous_kind: "heating" as const,
    timestamp: 1,
    actual: 209.5,
    target: 210,
  };
  assert.deepEqual(alertOf(change, validateSettings({ heating_sound_enabled: true })), {
    heater: "tool0",
    event: "heating_done",
    message: "Tool0: reached 210°C",
    notification: true,
    sound_url: "/plugin/temp_eta/static/sounds/heating_done.wav",
    timestamp: 1,
  });
  assert.equal(alertOf(change, validateSettings({ heating_notification_enabled: false })), null);
  const cooled = {
    ...change,
    heater: "bed",
    state: "cooled_down" as const,
    previous_state: "cooling" as const,
    previous_kind: "cooling" as const,
    actual: 40.6,
    target: null,
  };
  const alert = alertOf(
    cooled,
    validateSettings({ cooling_notification_enabled: false, cooling_sound_enabled: true }),
  );
  assert.equal(alert?.event, "cooling_done");
  assert.equal(alert?.message, "Bed: cooled down to 40.6°C");
  assert.equal(alert?.notification, false);
  assert.equal(alert?.sound_url, "/plugin/temp_eta/static/sounds/cooling_done.wav");
  assert.equal(alertOf({ ...change, previous_kind: null }, validateSettings({})), null);
});
