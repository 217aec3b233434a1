import assert from "node:assert/strict";
import { errorHandler } from "../../../lib/http/error_handler.ts";
import { apiApp, staticApp } from "../../../plugins/temp_eta/api.ts";
import { TempEtaService } from "../../../plugins/temp_eta/service.ts";
import { renderDefaultSound } from "../../../plugins/temp_eta/sounds.ts";
import { fakeContext } from "./fakes.ts";

Deno.test("GET /api/plugin/temp_eta reports enabled, algorithm, heaters and MQTT", async () => {
  const f = fakeContext({ algorithm: "exponential" });
  const service = new TempEtaService(f.ctx);
  service.start();
  for (let i = 1; i <= 80; i++) {
    f.printer.emit(f.printer.time + 500, { bed: { actual: 20 + i / 4, target: 60 } });
    f.clock.advance(500);
  }
  const res = await apiApp(service).request("/");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.enabled, true);
  assert.equal(body.algorithm, "exponential");
  assert.equal(body.heaters.length, 1);
  assert.equal(body.heaters[0].heater, "bed");
  assert.equal(body.heaters[0].state, "heating");
  assert.equal(typeof body.heaters[0].display.eta, "string");
  assert.deepEqual(
    { enabled: body.mqtt_enabled, connected: body.mqtt_connected },
    { enabled: false, connected: false },
  );
  assert.deepEqual(body.ui, {
    show_in_graph: true,
    show_in_sidebar: true,
    show_in_navbar: false,
    show_rate: true,
    show_percentage: false,
    heating_sound_url: null,
    cooling_sound_url: null,
  });
  await service.stop();
});

Deno.test("POST /api/plugin/temp_eta runs reset_history and reconnect_mqtt", async () => {
  const f = fakeContext();
  const service = new TempEtaService(f.ctx);
  service.start();
  f.printer.emit(f.printer.time + 500, { bed: { actual: 20, target: 60 } });
  f.clock.advance(500);
  // The host maps thrown errors to statuses (a bad body is an AppError 400 from the one reader).
  const app = apiApp(service).onError(errorHandler());
  const post = (body: string) =>
    app.request("/", { method: "POST", body, headers: { "content-type": "application/json" } });
  assert.equal(service.status().heaters.length, 1);
  const reset = await post(JSON.stringify({ command: "reset_history" }));
  assert.deepEqual(await reset.json(), { ok: true });
  assert.equal(service.status().heaters.length, 0);
  const reconnect = await post(JSON.stringify({ command: "reconnect_mqtt" }));
  assert.equal((await reconnect.json()).ok, true);
  const unknown = await post(JSON.stringify({ command: "explode" }));
  assert.equal(unknown.status, 400);
  assert.deepEqual(await unknown.json(), {
    error: 'Unknown command "explode"',
    code: "unknown_command",
  });
  const bad = await post("{not json");
  assert.equal(bad.status, 400);
  await service.stop();
});

Deno.test("the static route serves the sounds and refuses other names", async () => {
  const app = staticApp().onError(errorHandler());
  const res = await app.request("/sounds/heating_done.wav");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "audio/wav");
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), renderDefaultSound("heating_done.wav"));
  for (const path of ["/sounds/nope.wav", "/sounds/..%2Fmod.ts", "/sounds/mod.ts", "/mod.ts"]) {
    const r = await app.request(path);
    assert.equal(r.status, 404, path);
    if (path.startsWith("/sounds/")) {
      assert.deepEqual(await r.json(), { error: "Sound file not found", code: "not_found" }, path);
    } else await r.body?.cancel();
  }
});
