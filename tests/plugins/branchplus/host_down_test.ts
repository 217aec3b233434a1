/** The failsafe the launcher applies for the branch controller while the host is down. */
import assert from "node:assert/strict";
import { systemClock } from "../../../lib/clock.ts";
import { createLogger } from "../../../lib/log.ts";
import { plugin } from "../../../plugins/branchplus/mod.ts";
import { applyFailsafeWhileDown } from "../../../plugins/branchplus/host_down.ts";
import { validateBranchSettings } from "../../../plugins/branchplus/settings.ts";
import { startHubSimulator } from "../../doubles/powerhub_sim.ts";

const quiet = createLogger("t", { sink: () => {} });

Deno.test("the failsafe while the host is down switches each channel to its failsafe state and holds 'hold' ones", async () => {
  const sim = await startHubSimulator();
  try {
    sim.setChannel("usb", 1, true);
    sim.setChannel("usb", 2, true);
    const settings = validateBranchSettings({
      host: sim.host,
      port: sim.port,
      channels: [
        { kind: "usb", id: 2, failsafe: "hold" },
        { kind: "mx24v", id: 1, failsafe: "on" },
        ...[3, 4, 5].map((id) => ({ kind: "usb", id, failsafe: "hold" })),
        ...[2, 3, 4, 5].map((id) => ({ kind: "mx24v", id, failsafe: "hold" })),
      ],
    });
    const outcome = await applyFailsafeWhileDown(settings, { clock: systemClock, logger: quiet });
    assert.deepEqual(outcome, {
      ok: true,
      message: `hub at ${sim.url}: switched off: usb 1; switched on: mx24v 1; ` +
        "held: usb 2, usb 3, usb 4, usb 5, mx24v 2, mx24v 3, mx24v 4, mx24v 5",
    });
    assert.deepEqual(
      [sim.channels.usb?.["1"], sim.channels.usb?.["2"], sim.channels.mx24v?.["1"]],
      [0, 1, 1],
    );
    assert.deepEqual(sim.commands.map((c) => `${c.kind} ${c.id} ${c.on}`), [
      "usb 1 0",
      "mx24v 1 1",
    ]);
    assert.equal(sim.clients, 0, "the connection is closed again");
  } finally {
    await sim.close();
  }
});

Deno.test("with no hub answering the failsafe switches nothing and says why", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const settings = validateBranchSettings({ host: "127.0.0.1", port });
  const outcome = await applyFailsafeWhileDown(settings, {
    clock: systemClock,
    logger: quiet,
    timeoutMs: 1500,
  });
  assert.deepEqual(outcome, {
    ok: false,
    message: `no snapshot from the hub at ws://127.0.0.1:${port}/ws within 1.5 s: nothing switched`,
  });
});

Deno.test("the descriptor's failsafe is due after host_down_grace, and never without a hub", () => {
  const failsafe = plugin.failsafe!;
  assert.equal(failsafe.delaySeconds(validateBranchSettings({ host: "hub.lan" })), 60);
  assert.equal(
    failsafe.delaySeconds(validateBranchSettings({ host: "hub.lan", host_down_grace: 5 })),
    5,
  );
  assert.equal(failsafe.delaySeconds(validateBranchSettings({})), null);
});
