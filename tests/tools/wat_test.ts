import assert from "node:assert/strict";
import { join } from "node:path";
import { writeManifest } from "../../lib/http/fw/crawl.ts";
import { compileWat, findWatFiles, genPathOf, syncWatModules } from "../../tools/wat.ts";
import { REPO_ROOT, runDeno, tempEnv } from "../_helpers.ts";

const ADD16 = `(module (func (export "f") (param i32) (result i32)
  (i8x16.extract_lane_u 0 (i8x16.add (i8x16.splat (local.get 0)) (i8x16.splat (i32.const 16))))))`;

Deno.test("every committed .wasm.gen.ts is what tools/wat.ts compiles from its .wat; bad text is refused", async () => {
  assert.ok((await findWatFiles(REPO_ROOT)).includes("plugins/logmonitor/scan_kernel.wat"));
  assert.deepEqual(await syncWatModules(REPO_ROOT, false), [], "run deno task build");
  await assert.rejects(compileWat("bad.wat", "(module (func (i32.nope)))"), /bad\.wat/);
});

Deno.test("deno task build --check fails in one line when a compiled .wat is stale and passes when it is current", async () => {
  await using t = await tempEnv();
  const [wat, gen] = ["plugins/k/add.wat", "plugins/k/add.wasm.gen.ts"];
  assert.equal(genPathOf(wat), gen);
  await Deno.mkdir(join(t.root, "plugins/k"), { recursive: true });
  await Deno.writeTextFile(join(t.root, wat), ADD16);
  await writeManifest(t.root);
  const check = () =>
    runDeno(["run", "--allow-read", "tools/build.ts", "--check", "--root", t.root]);
  const stale = [1, `build: stale: ${gen} (run 'deno task build')\n`];

  let r = await check();
  assert.deepEqual([r.code, r.stderr], stale, "the generated module is missing");
  assert.deepEqual(await syncWatModules(t.root, true), [gen]);
  r = await check();
  assert.equal(r.code, 0, r.stderr);
  const { wasm } = await import(join(t.root, gen));
  const f = new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports.f as (
    x: number,
  ) => number;
  assert.equal(f(250), 10, "SIMD compiled: i8x16 lanes wrap");

  await Deno.writeTextFile(join(t.root, wat), ADD16.replace("i32.const 16", "i32.const 17"));
  r = await check();
  assert.deepEqual([r.code, r.stderr], stale, "the .wat changed");
});
