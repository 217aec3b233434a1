import assert from "node:assert/strict";
import { defaultChannelConfig } from "../../../plugins/branchplus/channel_config.ts";
import { LAYOUT } from "../../../plugins/branchplus/layout.ts";
import {
  API_BASE,
  cardViews,
  failureText,
  patchConfig,
  replaceConfig,
  sendCommand,
} from "../../../plugins/branchplus/panel_client.ts";
import { panelStateFrom } from "../../../plugins/branchplus/panel_state.ts";

const configs = LAYOUT.map((s) => defaultChannelConfig(s.kind, s.id));

Deno.test("cardViews() merges live states, layout badges and stored configurations in layout order", () => {
  const state = panelStateFrom({
    connected: true,
    channels: { usb: { "1": 1, "2": 0 } },
    layout: [...LAYOUT],
  });
  const stored = patchConfig(configs, "usb", 2, { label: "Lamp", mode: "manual" });
  const cards = cardViews(state, stored);
  assert.equal(cards.length, 10);
  assert.deepEqual(cards.slice(0, 3).map((c) => [c.key, c.chip, c.label, c.mode, c.type]), [
    ["usb:1", "on", "USB 1", "auto", "Type-C 5A"],
    ["usb:2", "off", "Lamp", "manual", "Type-C 1.5A"],
    ["usb:3", "unknown", "USB 3", "auto", "Type-C 1.5A"],
  ]);
  assert.equal(cards[5]!.key, "mx24v:1");
  assert.equal(cards[5]!.type, "MX3.0 24V");
  // A channel without a stored configuration falls back to the safe defaults.
  const bare = cardViews(state, []);
  assert.equal(bare[5]!.label, "MX 1");
  assert.deepEqual(bare[0]!.rules, {
    idle: "off",
    prepare: "off",
    printing: "off",
    paused: "off",
    error: "off",
  });
  assert.equal(bare[0]!.failsafe, "off");
});

Deno.test("replaceConfig() swaps one channel and patchConfig() changes fields without mutating", () => {
  const next = { ...defaultChannelConfig("mx24v", 3), failsafe: "hold" as const };
  const replaced = replaceConfig(configs, next);
  assert.equal(replaced.find((c) => c.kind === "mx24v" && c.id === 3)!.failsafe, "hold");
  assert.equal(configs.find((c) => c.kind === "mx24v" && c.id === 3)!.failsafe, "off");
  assert.equal(replaceConfig([], next).length, 1);
  const patched = patchConfig(configs, "usb", 1, { mode: "manual" });
  assert.equal(patched[0]!.mode, "manual");
  assert.equal(configs[0]!.mode, "auto");
});

Deno.test("failureText() prefers the detail, then the reason's text, then the reason", () => {
  assert.equal(failureText({ ok: false, reason: "not_connected" }), "The hub is not connected");
  assert.equal(failureText({ ok: false, reason: "x", detail: "Boom" }), "Boom");
  assert.equal(failureText({ ok: false, reason: "weird" }), "Command failed (weird)");
});

Deno.test("sendCommand() posts JSON with the CSRF token and maps HTTP errors to ok false, keeping the plugin's reason and detail", async () => {
  const seen: { url: string; init: RequestInit }[] = [];
  const ok = ((url: string, init: RequestInit) => {
    seen.push({ url, init });
    return Promise.resolve(Response.json({ ok: true, label: "L" }));
  }) as unknown as typeof fetch;
  const answer = await sendCommand("tok", { command: "set_label", label: "L" }, ok);
  assert.deepEqual(answer, { ok: true, label: "L" });
  assert.equal(seen[0]!.url, API_BASE);
  assert.equal(seen[0]!.init.method, "POST");
  assert.equal((seen[0]!.init.headers as Record<string, string>)["X-CSRF-Token"], "tok");
  assert.deepEqual(JSON.parse(String(seen[0]!.init.body)), { command: "set_label", label: "L" });

  const bad = (() =>
    Promise.resolve(
      Response.json({ error: "Unknown mode 'x'" }, { status: 400 }),
    )) as unknown as typeof fetch;
  assert.deepEqual(await sendCommand("tok", { command: "set_mode" }, bad), {
    ok: false,
    reason: "http_400",
    detail: "Unknown mode 'x'",
  });
  const limited = (() =>
    Promise.resolve(
      Response.json({ ok: false, reason: "rate_limited", detail: "Too many" }, { status: 429 }),
    )) as unknown as typeof fetch;
  assert.deepEqual(await sendCommand("tok", { command: "set_channel" }, limited), {
    ok: false,
    reason: "rate_limited",
    detail: "Too many",
  });
  const down = (() => Promise.reject(new TypeError("offline"))) as unknown as typeof fetch;
  const failed = await sendCommand("tok", {}, down);
  assert.equal(failed.ok, false);
  assert.equal(failed.reason, "network");
  const refused = (() =>
    Promise.resolve(
      Response.json({ ok: false, reason: "not_connected" }),
    )) as unknown as typeof fetch;
  assert.deepEqual(await sendCommand("tok", {}, refused), { ok: false, reason: "not_connected" });
});
