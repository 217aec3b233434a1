import assert from "node:assert/strict";
import {
  type ChannelConfig,
  defaultChannelConfig,
  RULE_STATES,
  type RuleAction,
} from "../../../plugins/branchplus/channel_config.ts";
import { matrixStateOf, planSwitches, resolveTarget } from "../../../plugins/branchplus/rules.ts";
import type { CombineLogic } from "../../../plugins/branchplus/settings.ts";

function channel(patch: Partial<ChannelConfig> = {}): ChannelConfig {
  return { ...defaultChannelConfig("usb", 1), ...patch };
}

Deno.test("matrixStateOf() maps every printer state to the matrix, cancelling to idle (not printing)", () => {
  const expected: Record<string, string> = {
    OPERATIONAL: "idle",
    OFFLINE: "idle",
    PRINTING: "printing",
    RESUMING: "printing",
    CANCELLING: "idle",
    FINISHING: "printing",
    PAUSED: "paused",
    PAUSING: "paused",
    ERROR: "error",
    CLOSED_WITH_ERROR: "error",
    STARTING: "prepare",
    TRANSFERRING_FILE: "prepare",
    CONNECTING: "idle",
  };
  for (const [state, matrix] of Object.entries(expected)) {
    assert.equal(matrixStateOf(state), matrix, state);
  }
  assert.equal(matrixStateOf(undefined), "idle");
});

Deno.test("resolveTarget() follows the full rule matrix in auto mode", async (t) => {
  const outcome: Record<RuleAction, boolean | undefined> = {
    on: true,
    off: false,
    ignore: undefined,
  };
  for (const state of RULE_STATES) {
    for (const action of ["on", "off", "ignore"] as const) {
      await t.step(`${state} → ${action}`, () => {
        const config = channel({ rules: { ...channel().rules, [state]: action } });
        assert.equal(resolveTarget(config, state, false, "temp_override"), outcome[action]);
        for (const other of RULE_STATES.filter((s) => s !== state)) {
          assert.equal(resolveTarget(config, other, false, "temp_override"), false);
        }
      });
    }
  }
});

Deno.test("resolveTarget() enforces the remembered state in manual mode, ignoring rules", () => {
  const rules = { idle: "on", prepare: "on", printing: "on", paused: "on", error: "on" } as const;
  const tempRule = { enabled: true, sensor: "bed", threshold: 40, above: "on" } as const;
  const off = channel({ mode: "manual", manual_on: false, rules, temp_rule: tempRule });
  assert.equal(resolveTarget(off, "printing", true, "or"), false);
  assert.equal(resolveTarget({ ...off, manual_on: true }, "idle", false, "and"), true);
});

Deno.test("resolveTarget() combines the state and temperature verdicts", async (t) => {
  type Verdict = "on" | "off" | "ignore";
  const expected = (combine: CombineLogic, state: Verdict, temp: "on" | "off" | "none") => {
    const byState = state === "ignore" ? undefined : state === "on";
    if (temp === "none") return byState;
    if (combine === "temp_override") return temp === "on";
    if (combine === "and") return state === "on" && temp === "on";
    return state === "on" || temp === "on";
  };
  for (const combine of ["temp_override", "and", "or"] as const) {
    for (const state of ["on", "off", "ignore"] as const) {
      for (const temp of ["on", "off", "none"] as const) {
        await t.step(`${combine}: state ${state}, temperature ${temp}`, () => {
          const config = channel({
            rules: { ...channel().rules, printing: state },
            temp_rule: {
              enabled: true,
              sensor: "bed",
              threshold: 40,
              above: temp === "off" ? "off" : "on",
            },
          });
          const active = temp !== "none";
          assert.equal(
            resolveTarget(config, "printing", active, combine),
            expected(combine, state, temp),
          );
        });
      }
    }
  }
});

Deno.test("planSwitches() sends only channels whose target differs from the current state", () => {
  const on = channel({ rules: { ...channel().rules, printing: "on" } });
  const ignored = { ...on, id: 2, rules: { ...on.rules, printing: "ignore" as const } };
  const off = { ...on, id: 3, rules: { ...on.rules, printing: "off" as const } };
  const plan = planSwitches({
    channels: [on, ignored, off],
    combine: "temp_override",
    hysteresis: 2,
    printerState: "PRINTING",
    temperatures: {},
    latches: new Map(),
    current: { usb: { "1": 0, "2": 0, "3": 0 } },
  });
  assert.deepEqual(plan.switches, [{ kind: "usb", id: 1, on: true }]);
});

Deno.test("planSwitches() carries the temperature latch through the hysteresis band", () => {
  const config = channel({
    rules: { ...channel().rules, idle: "off" },
    temp_rule: { enabled: true, sensor: "tool", threshold: 50, above: "on" },
  });
  let latches = new Map<string, boolean>();
  const targets: boolean[] = [];
  for (const actual of [45, 50, 49, 48.1, 48, 49.9, 50]) {
    const plan = planSwitches({
      channels: [config],
      combine: "temp_override",
      hysteresis: 2,
      printerState: "OPERATIONAL",
      temperatures: { tool0: { actual, target: null } },
      latches,
      current: {},
    });
    latches = plan.latches;
    targets.push(plan.switches[0]!.on);
  }
  assert.deepEqual(targets, [false, true, true, true, false, false, true]);
});
