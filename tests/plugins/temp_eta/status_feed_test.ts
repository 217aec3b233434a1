import assert from "node:assert/strict";
import {
  alertAction,
  applyEtaUpdate,
  applySettingsChanged,
  DEFAULT_UI,
  type HeaterInfo,
  heaterMapOf,
  isActiveHistory,
  navbarHeaters,
  orderHeaters,
  pushHistory,
  tempText,
} from "../../../plugins/temp_eta/status_feed.ts";

function heater(name: string, patch: Partial<HeaterInfo> = {}): HeaterInfo {
  return {
    heater: name,
    eta_seconds: null,
    eta_kind: null,
    state: "idle",
    target: null,
    actual: 22,
    cooling_target: 40,
    rate: null,
    timestamp: 0,
    progress: null,
    method: null,
    display: { eta: null },
    ...patch,
  };
}

Deno.test("orderHeaters() puts tools by index first, then bed, then chamber", () => {
  const names = orderHeaters(
    ["chamber", "bed", "tool10", "tool2", "tool0"].map((n) => heater(n)),
  ).map((h) => h.heater);
  assert.deepEqual(names, ["tool0", "tool2", "tool10", "bed", "chamber"]);
});

Deno.test("applyEtaUpdate() replaces one heater and ignores other messages", () => {
  const map = heaterMapOf([heater("tool0"), heater("bed")]);
  const { display: _d, ...status } = heater("tool0", {
    state: "heating",
    target: 210,
    actual: 100,
    eta_seconds: 42,
    eta_kind: "heating",
  });
  const next = applyEtaUpdate(map, {
    type: "eta_update",
    ...status,
    display: { eta: "42s", rate: "+2.00°C/s" },
  });
  assert.equal(next.tool0!.state, "heating");
  assert.equal(next.tool0!.display.eta, "42s");
  assert.equal("type" in next.tool0!, false);
  assert.equal(next.bed, map.bed);
  assert.equal(map.tool0!.state, "idle");
  assert.equal(applyEtaUpdate(map, { type: "eta_alert", heater: "tool0" }), map);
  const bare = applyEtaUpdate(map, { type: "eta_update", ...status });
  assert.deepEqual(bare.tool0!.display, { eta: null });
});

Deno.test("navbarHeaters() lists only heaters with an ETA, stalled or calculating text", () => {
  const map = heaterMapOf([
    heater("bed", { display: { eta: "stalled" }, state: "stalled" }),
    heater("tool0", { display: { eta: "1.5m" }, state: "heating" }),
    heater("chamber"),
  ]);
  assert.deepEqual(navbarHeaters(map).map((h) => h.heater), ["tool0", "bed"]);
});

Deno.test("tempText() shows the cooling target while cooling and 'off' without a goal", () => {
  assert.equal(tempText(heater("tool0", { actual: 99.96, target: 210 })), "100.0 / 210.0°C");
  assert.equal(
    tempText(heater("bed", { actual: 80, state: "cooling", cooling_target: 40 })),
    "80.0 / 40.0°C",
  );
  assert.equal(tempText(heater("bed", { actual: 22 })), "22.0°C, off");
});

Deno.test("pushHistory() prunes to the window and isActiveHistory() skips idle heaters", () => {
  let h = {};
  for (let t = 0; t <= 10_000; t += 1000) {
    h = pushHistory(h, "tool0", { t, actual: 20 + t / 100, target: 200, eta: 60 }, 5000);
  }
  const list = (h as Record<string, { t: number }[]>).tool0!;
  assert.deepEqual(list.map((p) => p.t), [5000, 6000, 7000, 8000, 9000, 10000]);
  assert.equal(isActiveHistory([{ t: 0, actual: 22, target: null, eta: null }]), false);
  assert.equal(isActiveHistory([{ t: 0, actual: 80, target: null, eta: 30 }]), true);
});

Deno.test("alertAction() uses a system notification only when permitted, else a toast", () => {
  const alert = {
    heater: "tool0",
    event: "heating_done" as const,
    message: "Tool0: reached 210°C",
    notification: true,
    sound_url: "/plugin/temp_eta/static/sounds/heating_done.wav",
  };
  assert.deepEqual(alertAction(alert, "granted"), {
    sound: alert.sound_url,
    notify: "system",
    title: "Target reached",
  });
  assert.equal(alertAction(alert, "denied").notify, "toast");
  assert.equal(alertAction(alert, "unsupported").notify, "toast");
  const quiet = { ...alert, event: "cooling_done" as const, notification: false, sound_url: null };
  assert.deepEqual(alertAction(quiet, "granted"), {
    sound: null,
    notify: null,
    title: "Cooldown finished",
  });
});

Deno.test("applySettingsChanged() merges the ui settings and reports enabled and the algorithm", () => {
  const next = applySettingsChanged(DEFAULT_UI, {
    type: "settings_changed",
    enabled: false,
    algorithm: "exponential",
    ui: { show_in_navbar: true },
  });
  assert.equal(next.ui.show_in_navbar, true);
  assert.equal(next.ui.show_in_graph, true);
  assert.equal(next.enabled, false);
  assert.equal(next.algorithm, "exponential");
  assert.equal(applySettingsChanged(DEFAULT_UI, { type: "eta_update" }).ui, DEFAULT_UI);
});
