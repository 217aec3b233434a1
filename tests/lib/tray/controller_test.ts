import assert from "node:assert/strict";
import { createLogger } from "../../../lib/log.ts";
import { TrayController, type TrayState } from "../../../lib/tray/mod.ts";
import { FakeTray, flush, ManualClock, ScriptedClient } from "./_fakes.ts";

const quiet = createLogger("test", { sink: () => {} });

function setup(state: TrayState) {
  const client = new ScriptedClient();
  client.state = state;
  const tray = new FakeTray();
  const clock = new ManualClock();
  const opened: string[] = [];
  const controller = new TrayController(client, tray, {
    url: "http://127.0.0.1:5000",
    openUrl: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
    clock,
    log: quiet,
  });
  const running = controller.run();
  return { client, tray, clock, opened, controller, running };
}

Deno.test("the controller polls at once and then every 3 seconds", async () => {
  const { client, tray, clock, running } = setup("idle");
  await flush();
  assert.equal(client.statusCalls, 1);
  assert.deepEqual(clock.intervals(), [3000]);
  assert.equal(tray.last!.icon, "gray");
  client.state = "running";
  clock.tick();
  await flush();
  assert.equal(tray.last!.icon, "green");
  client.state = "paused";
  clock.tick();
  await flush();
  assert.equal(tray.last!.icon, "yellow");
  assert.equal(tray.last!.items.find((i) => i.id === "pause")!.title, "Resume");
  client.state = "error";
  clock.tick();
  await flush();
  assert.equal(tray.last!.icon, "red");
  assert.ok(tray.last!.items.find((i) => i.id === "start")!.enabled);
  tray.click("quit");
  await running;
});

Deno.test("an unchanged state is not rendered again", async () => {
  const { tray, clock, running } = setup("idle");
  await flush();
  clock.tick();
  clock.tick();
  await flush();
  assert.equal(tray.renders.length, 1);
  tray.click("quit");
  await running;
});

Deno.test("each menu action sends its request and refreshes the status", async (t) => {
  const cases: [TrayState, "start" | "pause" | "stop", string][] = [
    ["idle", "start", "benchmark/start"],
    ["error", "start", "benchmark/start"],
    ["running", "pause", "benchmark/pause"],
    ["paused", "pause", "benchmark/resume"],
    ["running", "stop", "benchmark/stop"],
    ["paused", "stop", "benchmark/stop"],
  ];
  for (const [state, action, path] of cases) {
    await t.step(`${action} while ${state} POSTs ${path}`, async () => {
      const { client, tray, running } = setup(state);
      await flush();
      const before = client.statusCalls;
      tray.click(action);
      await flush();
      assert.deepEqual(client.posts, [path]);
      assert.equal(client.statusCalls, before + 1);
      tray.click("quit");
      await running;
    });
  }
});

Deno.test("actions that are disabled in the current state send nothing", async (t) => {
  const cases: [TrayState, "start" | "pause" | "stop"][] = [
    ["idle", "pause"],
    ["idle", "stop"],
    ["running", "start"],
    ["paused", "start"],
    ["error", "pause"],
    ["error", "stop"],
  ];
  for (const [state, action] of cases) {
    await t.step(`${action} while ${state}`, async () => {
      const { client, tray, running } = setup(state);
      await flush();
      tray.click(action);
      await flush();
      assert.deepEqual(client.posts, []);
      tray.click("quit");
      await running;
    });
  }
});

Deno.test("Open dashboard opens the configured URL", async () => {
  const { tray, opened, running } = setup("idle");
  await flush();
  tray.click("open");
  await flush();
  assert.deepEqual(opened, ["http://127.0.0.1:5000"]);
  tray.click("quit");
  await running;
});

Deno.test("Quit shuts the dashboard down, stops polling and ends run()", async () => {
  const { client, tray, clock, running, controller } = setup("running");
  await flush();
  tray.click("quit");
  await running;
  assert.deepEqual(client.posts, ["system/shutdown"]);
  assert.deepEqual(clock.intervals(), []);
  assert.equal(tray.closeCalls, 1);
  const calls = client.statusCalls;
  tray.click("start");
  await controller.poll();
  assert.equal(client.statusCalls, calls + 1);
  assert.deepEqual(client.posts, ["system/shutdown"]);
});

Deno.test("Quit falls back to stop when shutdown fails during a run", async () => {
  const { client, tray, running } = setup("paused");
  client.failing.add("system/shutdown");
  await flush();
  tray.click("quit");
  await running;
  assert.deepEqual(client.posts, ["system/shutdown", "benchmark/stop"]);
});

Deno.test("Quit against an unreachable dashboard still leaves the loop", async () => {
  const { client, tray, running } = setup("error");
  client.failing.add("system/shutdown");
  await flush();
  tray.click("quit");
  await running;
  assert.deepEqual(client.posts, ["system/shutdown"]);
});

Deno.test("run() ends when the icon goes away by itself", async () => {
  const { tray, clock, running } = setup("idle");
  await flush();
  await tray.close();
  await running;
  assert.deepEqual(clock.intervals(), []);
});
