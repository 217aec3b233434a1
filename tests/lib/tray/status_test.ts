import assert from "node:assert/strict";
import { menuOf, stateOfBody, viewOf } from "../../../lib/tray/mod.ts";
import type { MenuModel, TrayState } from "../../../lib/tray/mod.ts";

const enabled = (menu: MenuModel) =>
  menu.items.filter((i) => i.enabled && i.id !== "open" && i.id !== "quit").map((i) => i.title);

const TABLE: [TrayState, string, string[]][] = [
  ["idle", "gray", ["Start"]],
  ["running", "green", ["Pause", "Stop"]],
  ["paused", "yellow", ["Resume", "Stop"]],
  ["error", "red", ["Start"]],
];

Deno.test("viewOf() gives each state the seed's icon and enabled controls", async (t) => {
  for (const [state, icon, controls] of TABLE) {
    await t.step(`${state} is ${icon} with ${controls.join(", ")}`, () => {
      const view = viewOf(state);
      assert.equal(view.icon, icon);
      assert.deepEqual(enabled(menuOf(view)), controls);
    });
  }
});

Deno.test("the pause item reads Resume only while paused", () => {
  assert.equal(viewOf("running").pauseLabel, "Pause");
  assert.equal(viewOf("paused").pauseLabel, "Resume");
  assert.equal(viewOf("idle").pauseLabel, "Pause");
});

Deno.test("menuOf() always offers Open dashboard and Quit and a disabled status line", () => {
  for (const [state] of TABLE) {
    const items = menuOf(viewOf(state)).items;
    assert.deepEqual(items.map((i) => i.id), ["status", "start", "pause", "stop", "open", "quit"]);
    assert.equal(items.find((i) => i.id === "open")!.title, "Open dashboard");
    assert.ok(items.find((i) => i.id === "open")!.enabled);
    assert.ok(items.find((i) => i.id === "quit")!.enabled);
    assert.equal(items[0]!.enabled, false);
  }
  assert.equal(menuOf(viewOf("error")).items[0]!.title, "Status: unreachable");
  assert.equal(menuOf(viewOf("running")).tooltip, "localbench: running");
});

Deno.test("stateOfBody() reads the status field and treats anything else as error", () => {
  assert.equal(stateOfBody({ status: "idle", running: false }), "idle");
  assert.equal(stateOfBody({ status: "running" }), "running");
  assert.equal(stateOfBody({ status: "paused" }), "paused");
  assert.equal(stateOfBody({ status: "done" }), "error");
  assert.equal(stateOfBody({}), "error");
  assert.equal(stateOfBody(null), "error");
  assert.equal(stateOfBody("idle"), "error");
});
