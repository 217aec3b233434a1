import assert from "node:assert/strict";
import { FakeSocket, installPushGlobals } from "../../doubles/browser_push.ts";

/** Timers run by hand (`tick`) while in use. */
function fakeTimers() {
  const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };
  const pending = new Map<number, { at: number; fn: () => void }>();
  let now = 0;
  let next = 1;
  globalThis.setTimeout = ((fn: () => void, ms = 0) => {
    pending.set(next, { at: now + ms, fn });
    return next++;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((id: number) => pending.delete(id)) as typeof clearTimeout;
  return {
    tick(ms: number) {
      now += ms;
      for (const [id, t] of [...pending]) {
        if (t.at <= now) {
          pending.delete(id);
          t.fn();
        }
      }
    },
    [Symbol.dispose]() {
      globalThis.setTimeout = real.setTimeout;
      globalThis.clearTimeout = real.clearTimeout;
    },
  };
}

installPushGlobals("127.0.0.1:8080");
const {
  CAPPED_RECONNECT_MS,
  followPush,
  LAGGED_CLOSE,
  pushConnected,
  RECONNECT_MS,
  TOO_MANY_SOCKETS_CLOSE,
} = await import("../../../lib/shared/push.ts");

Deno.test("followPush() shares one socket among followers and closes it after the last", () => {
  FakeSocket.all = [];
  const a: unknown[] = [];
  const b: unknown[] = [];
  const stopA = followPush("temp_eta", (d) => a.push(d));
  const stopB = followPush("logmonitor", (d) => b.push(d));
  assert.equal(FakeSocket.all.length, 1, "one socket for the page");
  const ws = FakeSocket.all[0]!;
  assert.equal(ws.url, "ws://127.0.0.1:8080/push");
  ws.onopen?.();
  assert.equal(pushConnected.value, true);
  ws.push("temp_eta", { type: "eta_update" });
  ws.push("logmonitor", { type: "log_lines" });
  ws.onmessage?.({ data: "not json" });
  assert.deepEqual(a, [{ type: "eta_update" }]);
  assert.deepEqual(b, [{ type: "log_lines" }]);
  stopA();
  assert.equal(ws.closed, false);
  stopB();
  assert.equal(ws.closed, true);
  assert.equal(pushConnected.value, false);
});

Deno.test("followPush() reconnects after a loss while someone follows", () => {
  using time = fakeTimers();
  FakeSocket.all = [];
  const stop = followPush("branchplus", () => {});
  const first = FakeSocket.all[0]!;
  first.onopen?.();
  first.close();
  assert.equal(pushConnected.value, false);
  time.tick(RECONNECT_MS - 1);
  assert.equal(FakeSocket.all.length, 1);
  time.tick(1);
  assert.equal(FakeSocket.all.length, 2, "a new socket after the delay");
  stop();
  assert.equal(FakeSocket.all[1]!.closed, true);
  time.tick(RECONNECT_MS * 2);
  assert.equal(FakeSocket.all.length, 2, "no reconnection once nobody follows");
});

Deno.test("followPush() reopens a lagged socket soon, and one refused over the cap only after a while", () => {
  using time = fakeTimers();
  FakeSocket.all = [];
  const stop = followPush("logmonitor", () => {});
  FakeSocket.all[0]!.onopen?.();
  FakeSocket.all[0]!.close(LAGGED_CLOSE);
  time.tick(RECONNECT_MS);
  assert.equal(FakeSocket.all.length, 2, "a lagged socket is reopened after the usual delay");
  FakeSocket.all[1]!.close(TOO_MANY_SOCKETS_CLOSE);
  time.tick(RECONNECT_MS);
  assert.equal(FakeSocket.all.length, 2, "not at once when over the account's cap");
  time.tick(CAPPED_RECONNECT_MS - RECONNECT_MS);
  assert.equal(FakeSocket.all.length, 3);
  stop();
});
