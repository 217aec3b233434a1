import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError } from "../../../lib/error.ts";
import { fieldInfo } from "../../../lib/schema/mod.ts";
import { DEFAULTS, FIELDS, rangeHints } from "../../../plugins/temp_eta/schema.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";
import { isHostName } from "../../../plugins/temp_eta/rules.ts";

/** Asserts that `candidate` is rejected with a 400 whose message names `key` and matches. */
function rejects(candidate: Record<string, unknown>, key: string, pattern?: RegExp): void {
  assert.throws(() => validateSettings(candidate), (err: unknown) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(statusOf(err), 400);
    assert.equal(err.code, "invalid_setting");
    assert.ok(err.message.includes(`'${key}'`), err.message);
    if (pattern) assert.match(err.message, pattern);
    return true;
  });
}

Deno.test("validateSettings() fills every default and accepts them", () => {
  const s = validateSettings({});
  assert.deepEqual({ ...s }, { ...DEFAULTS });
  assert.equal(s.mqtt_topic_prefix, "localbench/temp_eta");
  assert.equal(s.algorithm, "linear");
  assert.equal(s.update_interval, 1.0);
  assert.equal(s.cooling_target_tool, 50);
});

Deno.test("validateSettings() has the seed's keys and the cooling targets", () => {
  const seedKeys = [
    "enabled",
    "algorithm",
    "update_interval",
    "min_rate",
    "max_eta",
    "heating_enabled",
    "heating_threshold",
    "heating_sound_enabled",
    "heating_sound_file",
    "heating_notification_enabled",
    "cooling_enabled",
    "cooling_threshold",
    "cooling_sound_enabled",
    "cooling_sound_file",
    "cooling_notification_enabled",
    "show_in_graph",
    "show_in_sidebar",
    "show_in_navbar",
    "time_format",
    "show_rate",
    "show_percentage",
    "mqtt_enabled",
    "mqtt_broker",
    "mqtt_port",
    "mqtt_username",
    "mqtt_password",
    "mqtt_tls_enabled",
    "mqtt_tls_insecure",
    "mqtt_ca_cert",
    "mqtt_topic_prefix",
    "mqtt_retain",
    "mqtt_qos",
    "mqtt_keepalive",
    "history_max_age",
    "history_max_samples",
    "exponential_window",
    "linear_window",
    "exponential_max_tau",
    "calculation_interval",
    "cleanup_interval",
    "debug_logging",
  ]; // deno-fmt-ignore
  const extra = ["cooling_target_tool", "cooling_target_bed", "cooling_target_chamber"];
  assert.deepEqual(Object.keys(FIELDS).sort(), [...seedKeys, ...extra].sort());
});

Deno.test("validateSettings() rejects the wrong type for every setting, naming it", async (t) => {
  for (const [key, field] of Object.entries(FIELDS)) {
    const kind = fieldInfo(field)!.kind;
    await t.step(key, () => {
      const wrong = kind === "boolean" ? "yes" : kind === "string" ? 42 : "1";
      rejects({ [key]: wrong }, key, /must be (a|an|one of|true or false)\b/);
      rejects({ [key]: null }, key);
    });
  }
});

Deno.test("validateSettings() rejects values outside every numeric range", async (t) => {
  for (const [key, field] of Object.entries(FIELDS)) {
    const spec = fieldInfo(field)!;
    if (spec.kind !== "number" && spec.kind !== "integer") continue;
    const [min, max] = [spec.min!, spec.max!];
    await t.step(key, () => {
      // Short windows and intervals so that each minimum passes the cross-setting rules.
      const base = { linear_window: 5, exponential_window: 10, cleanup_interval: 1 };
      assert.equal(validateSettings({ ...base, [key]: min })[key as "max_eta"], min);
      const top = { update_interval: 5, history_max_age: 300 };
      assert.equal(validateSettings({ ...top, [key]: max })[key as "max_eta"], max);
      rejects({ [key]: min - 1 }, key, /must be an? (number|integer) between/);
      rejects({ [key]: max + 1 }, key, /must be an? (number|integer) between/);
      if (spec.kind === "integer") rejects({ [key]: min + 0.5 }, key, /integer/);
      rejects({ [key]: Number.NaN }, key);
    });
  }
});

Deno.test("validateSettings() names the range as the settings table writes it", () => {
  rejects(
    { min_rate: 5 },
    "min_rate",
    /^Setting 'min_rate' must be a number between 0.01 and 1.0: got 5$/,
  );
  rejects({ max_eta: 10 }, "max_eta", /between 60 and 7200: got 10$/);
  rejects({ update_interval: 0.1 }, "update_interval", /between 0.5 and 5.0/);
});

Deno.test("validateSettings() checks the enum settings", () => {
  assert.equal(validateSettings({ algorithm: "exponential" }).algorithm, "exponential");
  rejects({ algorithm: "cubic" }, "algorithm", /one of linear, exponential: got "cubic"/);
  for (const f of ["auto", "seconds", "minutes", "hours", "hms"]) {
    assert.equal(validateSettings({ time_format: f }).time_format, f);
  }
  rejects({ time_format: "days" }, "time_format", /one of auto, seconds/);
});

Deno.test("validateSettings() rejects unknown keys, naming them", () => {
  rejects({ threshold_start: 5 }, "threshold_start", /not a setting/);
});

Deno.test("validateSettings() accepts sound files of the sounds folder only", () => {
  assert.equal(
    validateSettings({ heating_sound_file: "cooling_done.wav" }).heating_sound_file,
    "cooling_done.wav",
  );
  rejects({ heating_sound_file: "../../etc/passwd" }, "heating_sound_file", /file name/);
  rejects({ cooling_sound_file: "missing.wav" }, "cooling_sound_file", /not found/);
  rejects({ cooling_sound_file: ".hidden.wav" }, "cooling_sound_file");
});

Deno.test("validateSettings() checks the broker host name", () => {
  for (const host of ["localhost", "broker.example.org", "127.0.0.1", "::1", "fe80::1"]) {
    assert.equal(validateSettings({ mqtt_broker: host }).mqtt_broker, host);
  }
  rejects({ mqtt_broker: "bad host" }, "mqtt_broker", /host name or address/);
  rejects({ mqtt_broker: "-x.org" }, "mqtt_broker");
  rejects({ mqtt_enabled: true, mqtt_broker: "" }, "mqtt_broker", /must not be empty/);
  assert.equal(isHostName("a".repeat(64)), false);
});

Deno.test("validateSettings() normalises and checks the topic prefix", () => {
  assert.equal(validateSettings({ mqtt_topic_prefix: "/home/eta/" }).mqtt_topic_prefix, "home/eta");
  rejects({ mqtt_topic_prefix: "home/+/eta" }, "mqtt_topic_prefix", /'\+', '#'/);
  rejects({ mqtt_topic_prefix: "home/#" }, "mqtt_topic_prefix");
  rejects({ mqtt_topic_prefix: "///" }, "mqtt_topic_prefix", /non-empty/);
});

Deno.test("validateSettings() applies the cross-setting rules", () => {
  rejects(
    { history_max_age: 20 },
    "exponential_window",
    /must not be longer than 'history_max_age' \(20\): got 30/,
  );
  assert.equal(
    validateSettings({ history_max_age: 20, exponential_window: 20 }).history_max_age,
    20,
  );
  rejects({ history_max_age: 10, exponential_window: 10, linear_window: 15 }, "linear_window");
  rejects(
    { history_max_age: 10, exponential_window: 10, linear_window: 10, cleanup_interval: 20 },
    "cleanup_interval",
  );
  rejects({ calculation_interval: 2 }, "calculation_interval", /'update_interval'/);
  rejects({ mqtt_tls_insecure: true }, "mqtt_tls_insecure", /'mqtt_tls_enabled'/);
  assert.ok(
    validateSettings({ mqtt_tls_enabled: true, mqtt_tls_insecure: true }).mqtt_tls_insecure,
  );
  rejects({ mqtt_password: "secret" }, "mqtt_password", /'mqtt_username'/);
});

Deno.test("validateSettings() accepts a CA file or PEM text and rejects a missing file", async () => {
  const file = await Deno.makeTempFile({ suffix: ".pem" });
  try {
    assert.equal(validateSettings({ mqtt_ca_cert: file }).mqtt_ca_cert, file);
    const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
    assert.equal(validateSettings({ mqtt_ca_cert: pem }).mqtt_ca_cert, pem);
    rejects({ mqtt_ca_cert: file + ".missing" }, "mqtt_ca_cert", /not found/);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("validateSettings() rejects a string longer than its limit", () => {
  rejects({ mqtt_username: "u".repeat(300) }, "mqtt_username", /at most 256/);
});

Deno.test("the range hints of the settings screen are the schema's bounds", () => {
  const hints = rangeHints();
  const numbers = Object.entries(FIELDS).filter(([, f]) => fieldInfo(f)!.max !== undefined);
  assert.deepEqual(Object.keys(hints).sort(), numbers.map(([key]) => key).sort());
  assert.equal(hints.update_interval, "From 0.5 to 5.0.");
  assert.equal(hints.mqtt_port, "From 1 to 65535.");
  assert.equal(hints.cooling_target_bed, "From 0.0 to 200.0.");
});
