import assert from "node:assert/strict";
import { createUptimePlugin } from "../../../plugins/host_uptime/mod.ts";
import { FakeClock, json, startTestHost } from "../../lib/host/_helpers.ts";

const PATH = "/api/plugin/host_uptime";

async function uptimeHost(proc: () => Promise<string>) {
  const clock = new FakeClock();
  const plugin = createUptimePlugin({ readProc: proc });
  const t = await startTestHost({ plugins: [plugin], clock });
  return { ...t, clock };
}

Deno.test("GET /api/plugin/host_uptime returns every payload field", async () => {
  const t = await uptimeHost(() => Promise.resolve("90061.75 1000.00\n"));
  try {
    t.clock.advance(3_723_000);
    const res = await t.request(PATH, { key: t.keys.STATUS });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.seconds, 90061);
    assert.equal(body.uptime, "1d 1h 1m 1s");
    assert.equal(body.uptime_dhm, "1d 1h 1m");
    assert.equal(body.uptime_short, "1d1h1m");
    assert.equal(body.host_seconds, 3723);
    assert.equal(body.host_uptime, "1h 2m 3s");
    assert.equal(body.host_uptime_short, "1h2m");
    assert.equal(body.display_format, "full");
    assert.equal(body.poll_interval_seconds, 5);
    assert.equal(body.uptime_available, true);
    assert.equal(body.uptime_note, null);
    assert.equal(body.system_started, new Date(t.clock.now() - 90061_000).toISOString());
    for (
      const k of [
        "uptime_dh",
        "uptime_d",
        "show_system_uptime",
        "show_host_uptime",
        "compact_display",
        "compact_toggle_interval_seconds",
        "host_started",
      ]
    ) {
      assert.ok(k in body, k);
    }
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/plugin/host_uptime reports unavailable with a localised note", async () => {
  const t = await uptimeHost(() =>
    Promise.reject(new Deno.errors.NotCapable("Requires read access"))
  );
  try {
    const body = await (await t.request(PATH)).json();
    assert.equal(body.uptime_available, false);
    assert.equal(body.seconds, null);
    assert.equal(body.uptime, "unknown");
    assert.equal(body.uptime_note, "Uptime could not be determined on this system.");
    assert.equal(typeof body.host_seconds, "number", "the host uptime still works");
    const de =
      await (await t.request(PATH, { headers: { "Accept-Language": "de-DE,de;q=0.9,en;q=0.8" } }))
        .json();
    assert.match(de.uptime_note, /Betriebszeit/);
  } finally {
    await t.close();
  }
});

Deno.test("uptime settings follow their ranges and shape the payload", async () => {
  const t = await uptimeHost(() => Promise.resolve("100 1"));
  try {
    const ok = {
      display_format: "short",
      poll_interval_seconds: 30,
      compact_toggle_interval_seconds: 60,
      compact_display: true,
    };
    assert.equal(
      (await t.request("/api/settings", json("POST", { plugins: { host_uptime: ok } }))).status,
      200,
    );
    const body = await (await t.request(PATH)).json();
    assert.equal(body.display_format, "short");
    assert.equal(body.poll_interval_seconds, 30);
    const bad: [Record<string, unknown>, string][] = [
      [{ compact_toggle_interval_seconds: 4 }, "compact_toggle_interval_seconds"],
      [{ compact_toggle_interval_seconds: 61 }, "compact_toggle_interval_seconds"],
      [{ poll_interval_seconds: 0 }, "poll_interval_seconds"],
      [{ display_format: "weird" }, "display_format"],
      [{ show_system_uptime: "yes" }, "show_system_uptime"],
    ];
    for (const [values, name] of bad) {
      const res = await t.request(
        "/api/settings",
        json("POST", { plugins: { host_uptime: values } }),
      );
      assert.equal(res.status, 400, name);
      assert.match((await res.json()).error, new RegExp(`'${name}'`));
    }
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/plugin/host_uptime needs a key or session", async () => {
  const t = await uptimeHost(() => Promise.resolve("1 1"));
  try {
    assert.equal((await t.request(PATH, { key: null })).status, 401);
    assert.equal((await t.request(PATH, { method: "POST", key: t.keys.STATUS })).status, 403);
  } finally {
    await t.close();
  }
});

Deno.test("the host uptime counts from the service's start, which a restarted host is given", async () => {
  const clock = new FakeClock();
  const serviceStartedAt = clock.now() - 2 * 86400_000 - 3 * 3600_000 - 4 * 60_000;
  const t = await startTestHost({
    plugins: [createUptimePlugin({ readProc: () => Promise.resolve("10 1\n") })],
    clock,
    serviceStartedAt,
    resumed: true,
  });
  try {
    const body = await (await t.request(PATH, { key: t.keys.STATUS })).json();
    assert.equal(body.host_seconds, 2 * 86400 + 3 * 3600 + 4 * 60);
    assert.equal(body.host_uptime_dhm, "2d 3h 4m");
    assert.equal(body.host_started, new Date(serviceStartedAt).toISOString());
  } finally {
    await t.close();
  }
});
