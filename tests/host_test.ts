import assert from "node:assert/strict";
import { runDeno, tempEnv } from "./_helpers.ts";
import { hostTaskFlags } from "./e2e/_scoped_host.ts";

Deno.test("deno task host with an unknown flag or a missing value says so and exits 2", async () => {
  await using t = await tempEnv();
  const unknown = await runDeno(["run", "-A", "host.ts", "--", "--frobnicate"], { env: t.vars });
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /Cannot parse arguments: unknown argument '--frobnicate'/);
  const missing = await runDeno(["run", "-A", "host.ts", "--port"], { env: t.vars });
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /Cannot parse arguments: --port needs a value/);
});

Deno.test("the launcher of deno task host may read files and variables, learn the machine's names and run Deno, nothing else", async () => {
  assert.deepEqual(await hostTaskFlags(), [
    "--allow-read",
    "--allow-env",
    "--allow-sys=hostname,networkInterfaces",
    `--allow-run=${Deno.execPath()}`,
  ]);
});
