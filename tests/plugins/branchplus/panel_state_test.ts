import assert from "node:assert/strict";
import { LAYOUT } from "../../../plugins/branchplus/layout.ts";
import {
  applyPush,
  chipState,
  needsConfirmation,
  panelStateFrom,
} from "../../../plugins/branchplus/panel_state.ts";

const initial = panelStateFrom({
  connected: true,
  channels: { usb: { "1": 0, "2": 1 }, mx24v: { "1": 0 } },
  layout: [...LAYOUT],
  config: { confirm_high_power: true },
});

Deno.test("applyPush() merges a state push holding only the changed channels", () => {
  const next = applyPush(initial, { type: "state", channels: { usb: { "1": 1 } } });
  assert.deepEqual(next.channels, { usb: { "1": 1, "2": 1 }, mx24v: { "1": 0 } });
  assert.deepEqual(initial.channels.usb, { "1": 0, "2": 1 });
});

Deno.test("applyPush() shows the disconnected banner state and forgets the channels", () => {
  const down = applyPush(initial, { type: "connection", connected: false });
  assert.equal(down.connected, false);
  assert.equal(chipState(down, "usb", 2), "unknown");
  const back = applyPush(down, { type: "state", channels: { usb: { "2": 0 } } });
  assert.equal(back.connected, true);
  assert.equal(chipState(back, "usb", 2), "off");
});

Deno.test("chipState() tells on, off and unknown apart", () => {
  assert.equal(chipState(initial, "usb", 2), "on");
  assert.equal(chipState(initial, "usb", 1), "off");
  assert.equal(chipState(initial, "mx24v", 5), "unknown");
});

Deno.test("needsConfirmation() asks only before switching a 24 V channel on", () => {
  assert.equal(needsConfirmation(initial, "mx24v", true), true);
  assert.equal(needsConfirmation(initial, "mx24v", false), false);
  assert.equal(needsConfirmation(initial, "usb", true), false);
  assert.equal(needsConfirmation({ ...initial, confirmHighPower: false }, "mx24v", true), false);
});
