import assert from "node:assert/strict";
import { applyEnvOverrides } from "../../../plugins/temp_eta/env.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";

Deno.test("applyEnvOverrides() applies TEMP_ETA_ALGORITHM, TEMP_ETA_MIN_RATE and TEMP_ETA_DEBUG", () => {
  const r = applyEnvOverrides(validateSettings({}), {
    TEMP_ETA_ALGORITHM: "Exponential",
    TEMP_ETA_MIN_RATE: "0.05",
    TEMP_ETA_DEBUG: "1",
    OTHER_DEBUG: "1",
  });
  assert.equal(r.settings.algorithm, "exponential");
  assert.equal(r.settings.min_rate, 0.05);
  assert.equal(r.settings.debug_logging, true);
  assert.deepEqual(r.applied, ["algorithm", "min_rate", "debug_logging"]);
  assert.deepEqual(r.rejected, []);
});

Deno.test("applyEnvOverrides() ignores invalid values and says why", () => {
  const base = validateSettings({});
  const r = applyEnvOverrides(base, {
    TEMP_ETA_ALGORITHM: "cubic",
    TEMP_ETA_MIN_RATE: "5",
    TEMP_ETA_DEBUG: "maybe",
  });
  assert.deepEqual(r.settings, base);
  assert.deepEqual(r.applied, []);
  assert.equal(r.rejected.length, 3);
  assert.match(r.rejected[0]!, /^TEMP_ETA_ALGORITHM ignored: Setting 'algorithm' must be one of/);
  assert.match(
    r.rejected[1]!,
    /TEMP_ETA_MIN_RATE ignored: .*'min_rate' must be a number between 0.01/,
  );
  assert.match(r.rejected[2]!, /TEMP_ETA_DEBUG ignored/);
  assert.equal(applyEnvOverrides(base, { TEMP_ETA_MIN_RATE: "" }).rejected.length, 1);
});

Deno.test("applyEnvOverrides() with TEMP_ETA_DEBUG=0 turns debug logging off", () => {
  const r = applyEnvOverrides(validateSettings({ debug_logging: true }), { TEMP_ETA_DEBUG: "0" });
  assert.equal(r.settings.debug_logging, false);
});

Deno.test("applyEnvOverrides() leaves the settings alone without variables", () => {
  const base = validateSettings({ algorithm: "exponential" });
  assert.deepEqual(applyEnvOverrides(base, {}), { settings: base, applied: [], rejected: [] });
});
