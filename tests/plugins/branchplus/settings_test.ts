import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError } from "../../../lib/error.ts";
import { cleanLabel } from "../../../plugins/branchplus/channel_config.ts";
import { settingsDefaults, validateSettings } from "../../../lib/host/settings/validate.ts";
import { plugin } from "../../../plugins/branchplus/mod.ts";
import {
  defaultSettings,
  hubUrl,
  validateBranchSettings,
} from "../../../plugins/branchplus/settings.ts";

function rejects(candidate: Record<string, unknown>, setting: string) {
  assert.throws(
    () => validateBranchSettings({ ...defaultSettings(), ...candidate }),
    (err: unknown) =>
      err instanceof AppError && statusOf(err) === 400 && err.message.includes(`'${setting}`),
    `expected a 400 naming ${setting}`,
  );
}

Deno.test("the descriptor declares id, version, a schema whose defaults validate, and its hub", () => {
  assert.equal(plugin.id, "branchplus");
  assert.equal(plugin.settingsVersion, 1);
  const defaults = settingsDefaults(plugin);
  assert.deepEqual(defaults, defaultSettings());
  assert.deepEqual(validateSettings(plugin, structuredClone(defaults)), defaults);
  assert.deepEqual(plugin.networkHosts?.({ ...defaults, host: "hub.lan", port: 81 }), [
    "hub.lan:81",
  ]);
  assert.deepEqual(plugin.networkHosts?.(defaults), []);
});

Deno.test("defaultSettings() has ten safe channels and the reference defaults (the reconnect delay capped at 3 s)", () => {
  const d = defaultSettings();
  assert.equal(d.host, "");
  assert.equal(d.port, 80);
  assert.equal(d.path, "/ws");
  assert.equal(d.reconnect_min, 1);
  assert.equal(d.reconnect_max, 3);
  assert.equal(d.startup_behaviour, "leave");
  assert.equal(d.host_down_grace, 60);
  assert.deepEqual(d.channels.map((c) => `${c.kind} ${c.id} ${c.label}`), [
    "usb 1 USB 1",
    "usb 2 USB 2",
    "usb 3 USB 3",
    "usb 4 USB 4",
    "usb 5 USB 5",
    "mx24v 1 MX 1",
    "mx24v 2 MX 2",
    "mx24v 3 MX 3",
    "mx24v 4 MX 4",
    "mx24v 5 MX 5",
  ]);
  for (const c of d.channels) {
    assert.equal(c.mode, "auto");
    assert.equal(c.failsafe, "off");
    assert.equal(c.temp_rule.enabled, false);
    assert.deepEqual(Object.values(c.rules), ["off", "off", "off", "off", "off"]);
  }
});

Deno.test("validateBranchSettings() rejects invalid values with a 400 naming the setting", () => {
  rejects({ port: 0 }, "port");
  rejects({ port: 1.5 }, "port");
  rejects({ host: "a host" }, "host");
  rejects({ path: "ws" }, "path");
  rejects({ reconnect_min: 0.5 }, "reconnect_min");
  rejects({ reconnect_min: 10, reconnect_max: 5 }, "reconnect_max");
  rejects({ host_down_grace: 0 }, "host_down_grace");
  rejects({ host_down_grace: 86401 }, "host_down_grace");
  rejects({ combine_logic: "xor" }, "combine_logic");
  rejects({ startup_behaviour: "random" }, "startup_behaviour");
  rejects({ automation_enabled: "yes" }, "automation_enabled");
  rejects({ channels: "all" }, "channels");
  rejects({ channels: [{ kind: "usb", id: 9 }] }, "channels[0]");
  rejects({ channels: [[]] }, "channels[0]");
  rejects({ channels: [{ kind: "usb", id: 1, rules: [] }] }, "channels[0].rules");
  rejects({ channels: [{ kind: "usb", id: 1, temp_rule: [] }] }, "channels[0].temp_rule");
  rejects({ channels: [{ kind: "usb", id: 1 }, { kind: "usb", id: 1 }] }, "channels[1]");
  rejects({ channels: [{ kind: "usb", id: 1, mode: "sometimes" }] }, "channels[0].mode");
  rejects(
    { channels: [{ kind: "usb", id: 1, rules: { idle: "maybe" } }] },
    "channels[0].rules.idle",
  );
  rejects(
    { channels: [{ kind: "usb", id: 1, temp_rule: { sensor: "panda" } }] },
    "channels[0].temp_rule.sensor",
  );
  rejects({ channels: [{ kind: "usb", id: 1, failsafe: "explode" }] }, "channels[0].failsafe");
});

Deno.test("validateBranchSettings() fills missing channels with defaults in layout order", () => {
  const s = validateBranchSettings({
    ...defaultSettings(),
    port: "8080",
    host: " hub.lan ",
    channels: [{ kind: "mx24v", id: 2, label: "  Heater  ", mode: "manual", manual_on: true }],
  });
  assert.equal(s.port, 8080);
  assert.equal(s.host, "hub.lan");
  assert.equal(s.channels.length, 10);
  assert.deepEqual(
    { ...s.channels[6]!, rules: undefined, temp_rule: undefined },
    {
      kind: "mx24v",
      id: 2,
      label: "Heater",
      mode: "manual",
      manual_on: true,
      failsafe: "off",
      rules: undefined,
      temp_rule: undefined,
    },
  );
  assert.equal(s.channels[0]!.label, "USB 1");
});

Deno.test("cleanLabel() strips the label and cuts it to 64 characters", () => {
  assert.equal(cleanLabel("  Lamp \n"), "Lamp");
  assert.equal(cleanLabel("x".repeat(100)).length, 64);
  assert.equal(Array.from(cleanLabel("🔥".repeat(70))).length, 64);
  assert.equal(cleanLabel(""), "");
});

Deno.test("hubUrl() builds the WebSocket address, bracketing IPv6 hosts", () => {
  assert.equal(hubUrl("10.0.0.5", 80, "/ws"), "ws://10.0.0.5:80/ws");
  assert.equal(hubUrl("::1", 8080, "/ws"), "ws://[::1]:8080/ws");
});
