/**
 * Long commands on a Marlin printer over a real tty (the simulator): homing (`G28`) and a heat
 * and wait (`M109`) take several times the host's answer watchdog, and the printer's
 * `echo:busy: processing` (and, heating, its temperature lines) keep them alive: each is
 * acknowledged, and the printer stays operational throughout.
 */
import assert from "node:assert/strict";
import { startRig } from "./_marlin_rig.ts";

Deno.test({
  name:
    "G28 and M109 answered with busy outlast the answer watchdog, and the printer stays operational",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const watchdogMs = 1000;
    await using rig = await startRig({
      // No auto-report: while the queue is held, busy lines are all the printer sends.
      sim: { speed: 20, homingSeconds: 60, capabilities: { AUTOREPORT_TEMP: false } },
      session: { answerTimeoutMs: watchdogMs },
      connectAt: 250000,
    });
    const before = rig.states().length;
    const received = () =>
      rig.events.flatMap((e) =>
        e.type === "terminal" && e.line.direction === "received" ? [e.line.text] : []
      );

    const homing = received().length;
    let started = performance.now();
    const g28 = await rig.call("POST", "/api/printer/command", { command: "G28" });
    let took = performance.now() - started;
    assert.equal(g28.status, 204, JSON.stringify(g28.body));
    assert.ok(took > 2 * watchdogMs, `G28 took ${took} ms`);
    const busy = received().slice(homing).filter((l) => l === "echo:busy: processing");
    assert.ok(busy.length >= 4, `${busy.length} busy lines`);

    started = performance.now();
    const m109 = await rig.call("POST", "/api/printer/command", { command: "M109 S200" });
    took = performance.now() - started;
    assert.equal(m109.status, 204, JSON.stringify(m109.body));
    assert.ok(took > 2 * watchdogMs, `M109 took ${took} ms`);
    assert.ok(
      Math.abs(rig.sim.controls.heaters.hotend.reading - 200) < 3,
      "heated when acknowledged",
    );

    // A command the test holds for a simulated minute (3 real seconds).
    rig.sim.controls.busy(60);
    started = performance.now();
    assert.equal((await rig.call("POST", "/api/printer/command", { command: "M400" })).status, 204);
    assert.ok(performance.now() - started > 2 * watchdogMs);

    assert.deepEqual(rig.states().slice(before), [], "never left operational");
    const current = await rig.current();
    assert.deepEqual([current.state, current.error], ["Operational", null]);
    assert.deepEqual(rig.accepted(/^(G28|M109|M400)\b/), ["G28", "M109 S200", "M400"]);
  },
});
