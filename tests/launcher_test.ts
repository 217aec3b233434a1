import assert from "node:assert/strict";
import { planLaunch } from "../lib/entry/launch.ts";
import { runDeno } from "./_helpers.ts";

const PERMS = ["run", "-A", "launcher.ts"];

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

Deno.test("the launcher with --help prints the entry script's help", async () => {
  const res = await runDeno([...PERMS, "--help"]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /localbench — benchmark local language models/);
  assert.match(res.stdout, /--runs/);
});

Deno.test("the launcher alone starts only the tray (no display here: exit 1, no benchmark)", async () => {
  const env = { DISPLAY: "", WAYLAND_DISPLAY: "" };
  const plain = await runDeno(PERMS, { env });
  assert.equal(plain.code, 1);
  assert.match(plain.stderr, /localbench tray: Cannot show the tray: no display/);
  assert.doesNotMatch(plain.stderr, /DEBUG/);
  const debug = await runDeno([...PERMS, "-d"], { env });
  assert.equal(debug.code, 1);
  assert.match(debug.stderr, /DEBUG - Dashboard http:\/\/localhost:1234: /);
});
