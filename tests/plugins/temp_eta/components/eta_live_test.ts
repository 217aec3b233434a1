import assert from "node:assert/strict";
import { FakeSocket, installPushGlobals } from "../../../doubles/browser_push.ts";

const loads: string[] = [];
const heater = (state: string, eta: string | null) => ({
  heater: "tool0",
  actual: 180,
  target: 200,
  cooling_target: null,
  state,
  progress: 50,
  display: { eta },
});
installPushGlobals("127.0.0.1:5000");
const realFetch = globalThis.fetch;
globalThis.fetch = ((url: string) => {
  loads.push(url);
  const body = {
    enabled: true,
    time_format: "m:s",
    heaters: [heater("heating", "1:00")],
    ui: { show_in_navbar: true },
  };
  return Promise.resolve(new Response(JSON.stringify(body)));
}) as typeof fetch;
const live = await import("../../../../plugins/temp_eta/components/eta_live.ts");

Deno.test("the panel and the top-bar element share one status load and one push subscription", async () => {
  try {
    const seen: unknown[] = [];
    const stopPanel = live.followEta((d) => seen.push(d.type));
    const stopNavbar = live.followEta();
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(loads, ["/api/plugin/temp_eta"], "one status load");
    assert.equal(FakeSocket.all.length, 1, "one socket");
    assert.equal(live.loaded.value, true);
    assert.equal(live.heaters.value.tool0?.display.eta, "1:00");

    const ws = FakeSocket.all[0]!;
    ws.onopen?.();
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(loads.length, 2, "again once the socket is open: pushes before were missed");
    ws.push("temp_eta", { type: "eta_update", ...heater("heating", "0:30") });
    assert.equal(live.heaters.value.tool0?.display.eta, "0:30", "both islands see the update");
    ws.push("temp_eta", { type: "settings_changed", enabled: false, ui: { show_rate: false } });
    assert.equal(live.enabled.value, false);
    assert.equal(live.ui.value.show_rate, false);
    assert.equal(live.ui.value.show_in_navbar, true, "the other settings kept");
    assert.deepEqual(seen, ["eta_update", "settings_changed"], "the panel gets the messages");

    // A restored connection loads the status again.
    const { pushConnected } = await import("../../../../lib/shared/push.ts");
    pushConnected.value = false;
    pushConnected.value = true;
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(loads.length, 3);
    stopPanel();
    assert.equal(ws.closed, false, "the top-bar element still follows");
    stopNavbar();
    assert.equal(ws.closed, true, "closed after the last follower");
  } finally {
    globalThis.fetch = realFetch;
  }
});
