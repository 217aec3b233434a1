import assert from "node:assert/strict";
import { runDeno, tempEnv } from "./_helpers.ts";

Deno.test("main.ts --help prints both helps and exits 0 without a desktop", async () => {
  await using t = await tempEnv();
  const r = await runDeno(["run", "-A", "main.ts", "--help"], { env: t.vars });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /localbench — benchmark local language models/);
  assert.match(r.stdout, /Usage: localbench \[options\]/);
  assert.match(r.stdout, /Comparison options:/);
});

Deno.test("main.ts hands every argument to the benchmark and exits with its status", async () => {
  await using t = await tempEnv();
  const r = await runDeno(["run", "-A", "main.ts", "--runs", "0"], { env: t.vars });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /localbench: error: option '-r, --runs <n>' argument '0' is invalid/);
});
