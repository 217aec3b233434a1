import assert from "node:assert/strict";
import { FakeClock, json, startTestHost } from "./_helpers.ts";

Deno.test("printer endpoints set targets on the virtual printer and validate input", async () => {
  const clock = new FakeClock();
  const t = await startTestHost({ clock });
  try {
    const ok = [
      ["/api/printer/tool", { command: "target", targets: { tool0: 210 } }],
      ["/api/printer/bed", { command: "target", target: 60 }],
      ["/api/printer/chamber", { command: "target", target: 40 }],
      ["/api/printer/command", { commands: ["M105", "M107"] }],
    ] as const;
    for (const [path, body] of ok) {
      const res = await t.request(path, { ...json("POST", body), key: t.keys.CONTROL });
      assert.equal(res.status, 204, path);
    }
    clock.advance(5000);
    const state = await (await t.request("/api/printer", { key: t.keys.STATUS })).json();
    assert.equal(state.temperature.tool0.target, 210);
    assert.equal(state.temperature.bed.target, 60);
    assert.ok(state.temperature.tool0.actual > 22);
    assert.equal(state.state.text, "Operational");
    assert.equal(state.state.flags.ready, true);
    const bad = [
      ["/api/printer/tool", { command: "target", targets: { tool9: 100 } }, 400],
      ["/api/printer/tool", { command: "target", targets: { bed: 100 } }, 400],
      ["/api/printer/bed", { command: "target", target: 999 }, 400],
      ["/api/printer/bed", { command: "offset", target: 1 }, 400],
      ["/api/printer/chamber", { command: "target", target: "hot" }, 400],
      ["/api/printer/command", { commands: ["M105\nM112"] }, 400],
      ["/api/printer/command", { commands: [] }, 400],
      ["/api/job", {}, 400],
    ] as const;
    for (const [path, body, status] of bad) {
      const res = await t.request(path, json("POST", body));
      assert.equal(res.status, status, `${path} ${JSON.stringify(body)}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("the connection API shows the virtual printer, and needs CONNECTION to change it", async () => {
  const t = await startTestHost({ clock: new FakeClock() });
  try {
    const got = await (await t.request("/api/connection", { key: t.keys.STATUS })).json();
    assert.deepEqual(
      [got.current.state, got.current.port, got.options.portPreference, got.options.autoconnect],
      ["Operational", "VIRTUAL", "VIRTUAL", true],
    );
    assert.ok(got.options.ports.includes("VIRTUAL"));
    assert.deepEqual(got.options.baudrates, [250000, 230400, 115200, 57600, 38400, 19200, 9600]);
    for (const key of [t.keys.STATUS, t.keys.CONTROL, t.keys.SETTINGS]) {
      const res = await t.request("/api/connection", {
        ...json("POST", { command: "disconnect" }),
        key,
      });
      assert.equal(res.status, 403);
      await res.body?.cancel();
    }
    const off = await t.request("/api/connection", {
      ...json("POST", { command: "disconnect" }),
      key: t.keys.CONNECTION,
    });
    assert.equal(off.status, 204);
    const offline = await (await t.request("/api/connection")).json();
    assert.equal(offline.current.state, "Offline");
    const missing = await t.request("/api/connection", {
      ...json("POST", {
        command: "connect",
        port: "/dev/ttyUSB_localbench_none",
        baudrate: 115200,
      }),
      key: t.keys.CONNECTION,
    });
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error, /ttyUSB_localbench_none/);
    const failed = await (await t.request("/api/connection")).json();
    assert.equal(failed.current.state, "Offline after error");
    assert.match(failed.current.error, /ttyUSB_localbench_none/);
    const back = await t.request("/api/connection", {
      ...json("POST", { command: "connect", port: "VIRTUAL", save: true, autoconnect: false }),
      key: t.keys.CONNECTION,
    });
    assert.equal(back.status, 204);
    const saved = await (await t.request("/api/connection")).json();
    assert.deepEqual(
      [saved.current.state, saved.options.portPreference, saved.options.autoconnect],
      ["Operational", "VIRTUAL", false],
    );
    for (
      const body of [{ command: "connect", baudrate: 1 }, { command: "fly" }, {
        command: "connect",
        save: "yes",
      }]
    ) {
      const res = await t.request("/api/connection", json("POST", body));
      assert.equal(res.status, 400, JSON.stringify(body));
      await res.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("the terminal's recent lines are readable with STATUS and pushed to the pages with the connection", async () => {
  const clock = new FakeClock();
  const t = await startTestHost({ clock });
  const pushed: Record<string, unknown>[] = [];
  t.host.push.observe((plugin, data) => plugin === "host" && pushed.push(data));
  try {
    const sent = await t.request("/api/printer/command", {
      ...json("POST", { commands: ["M105"] }),
      key: t.keys.CONTROL,
    });
    assert.equal(sent.status, 204);
    const res = await t.request("/api/printer/terminal", { key: t.keys.STATUS });
    assert.equal(res.status, 200);
    const { lines } = await res.json();
    const texts = lines.map((l: { direction: string; text: string }) => `${l.direction} ${l.text}`);
    assert.ok(texts.includes("sent M105"), texts.join("\n"));
    assert.ok(texts.some((l: string) => /^received ok T:/.test(l)), texts.join("\n"));
    const current = (await (await t.request("/api/connection")).json()).current;
    assert.equal(current.stateId, "OPERATIONAL");
    await t.request("/api/connection", {
      ...json("POST", { command: "disconnect" }),
      key: t.keys.CONNECTION,
    });
    clock.advance(1000);
    const last = pushed.at(-1)!;
    assert.equal(last.type, "printer");
    assert.deepEqual(
      [
        (last.connection as { state: string }).state,
        (last.connection as { stateId: string }).stateId,
      ],
      ["Offline", "OFFLINE"],
    );
    assert.ok(
      pushed.flatMap((m) => (m.lines ?? []) as { text: string }[]).some((l) => l.text === "M105"),
    );
  } finally {
    await t.close();
  }
});
