import assert from "node:assert/strict";
import { runDeno } from "./_helpers.ts";

const PERMS = ["run", "-A", "launcher.ts"];

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
