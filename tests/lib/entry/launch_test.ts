import assert from "node:assert/strict";
import { planLaunch } from "../../../lib/entry/launch.ts";

Deno.test("planLaunch() runs the tray alone for no arguments, --debug or -d", () => {
  assert.deepEqual(planLaunch([]), { kind: "tray", args: ["--url", "http://localhost:1234"] });
  assert.deepEqual(planLaunch(["--"]), { kind: "tray", args: ["--url", "http://localhost:1234"] });
  for (const argv of [["--debug"], ["-d"], ["-d", "--debug"], ["--", "-d"]]) {
    assert.deepEqual(planLaunch(argv), {
      kind: "tray",
      args: ["--url", "http://localhost:1234", "--debug"],
    });
  }
});

Deno.test("planLaunch() hands any other arguments to the entry script unchanged", () => {
  for (
    const argv of [["--help"], ["-w"], ["-wd"], ["--runs", "1"], ["-d", "--limit", "2"], ["x"]]
  ) {
    assert.deepEqual(planLaunch(argv), { kind: "entry", args: argv });
  }
});
