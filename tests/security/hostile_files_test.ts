/**
 * 13.6: hostile files and crashes. A bad preset affects only itself and no message repeats a
 * file's content or full path; a deeply nested configuration is a clear error, not a RangeError
 * trace; results left `running` by a killed process are marked interrupted at the next start
 * (and those of a live process are not); the cache can be cleared under the permissions the
 * tasks really grant (not only under `-A`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { INTERRUPTED_ERROR, ResultsStore } from "../../lib/store/mod.ts";
import { programPermissions, REPO_ROOT, runDeno, tempEnv, writeJson } from "../_helpers.ts";
import { testDashboard } from "../routes/_dashboard.ts";

const SECRET = "SECRET-7f3a";

Deno.test("a broken preset file affects only itself, named without its path or content", async () => {
  await using d = await testDashboard();
  const dir = join(d.env.configDir, "presets");
  await writeJson(join(dir, "good.json"), { runs: 2 });
  await writeJson(join(dir, "syntax.json"), `{"runs": 2, "x": ${SECRET}}`);
  await writeJson(join(dir, "deep.json"), "[".repeat(200_000) + "]".repeat(200_000));
  await writeJson(join(dir, "typed.json"), { runs: { value: SECRET } });
  await writeJson(join(dir, "array.json"), [SECRET]);
  const res = await d.request("/api/presets");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.ok(body.presets.some((p: { name: string }) => p.name === "good"));
  assert.deepEqual(body.broken.map((b: { name: string }) => b.name).sort(), [
    "array",
    "deep",
    "syntax",
    "typed",
  ]);
  const text = JSON.stringify(body.broken);
  assert.ok(!text.includes(SECRET) && !text.includes(d.env.root), text);
  assert.match(
    text,
    /preset 'syntax' \(presets\/syntax\.json\) at line 1, column 18: unexpected character/,
  );
  assert.match(text, /nested deeper than 64 levels/);
  assert.equal((await d.request("/api/presets/good")).status, 200);
  for (const name of ["syntax", "deep", "typed", "array"]) {
    const one = await d.request(`/api/presets/${name}`);
    assert.equal(one.status, 422, name);
    const error = (await one.json()).error as string;
    assert.ok(!error.includes(SECRET) && !error.includes(d.env.root), error);
  }
  const page = await d.request("/benchmark");
  assert.equal(page.status, 200, "the page still renders");
  await page.body?.cancel();
});

Deno.test("a deeply nested defaults.json is one clear sentence on the command line and the API", async () => {
  await using t = await tempEnv();
  const nested = `{"load": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  await writeJson(join(t.configDir, "defaults.json"), nested);
  const r = await runDeno(["run", "-A", "cli.ts", "--print-config"], { env: t.vars });
  assert.equal(r.code, 1);
  assert.match(
    r.stderr.trim().split("\n").at(-1)!,
    /^localbench: error: Cannot parse the user configuration \(defaults\.json\): JSON is nested deeper than 64 levels$/,
  );
  assert.doesNotMatch(r.stderr, /RangeError|\n\s+at /);
  await using d = await testDashboard();
  await writeJson(join(d.env.configDir, "defaults.json"), nested);
  const start = await d.request("/api/benchmark/start", { method: "POST", body: "{}" });
  assert.equal(start.status, 422);
  assert.match((await start.json()).error, /nested deeper than 64 levels/);
  const results = await d.request("/api/results");
  assert.equal(results.status, 200, "only the start is affected");
  await results.body?.cancel();
});

Deno.test("a result left running by a killed process is marked interrupted at the next start", async () => {
  await using t = await tempEnv();
  const db = join(t.root, "results.db");
  const flags = programPermissions("webapp");
  const spawn = () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, "tests/security/_store_child.ts", "begin", db],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const ready = (async () => {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (!text.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the child ended before it was ready");
        text += value;
      }
      reader.releaseLock();
      return Number(/ready (\d+)/.exec(text)![1]);
    })();
    return { child, ready };
  };
  const killed = spawn();
  const killedId = await killed.ready;
  killed.child.kill("SIGKILL");
  await killed.child.status;
  const alive = spawn();
  const aliveId = await alive.ready;
  try {
    const store = ResultsStore.open(db);
    try {
      // The second child, opening the store under the webapp's own permissions, already found
      // the first one's owner gone and marked its result: nothing is left for this open.
      assert.equal(store.interrupted, 0);
      const rows = store.allResults();
      const gone = rows.find((r) => r.id === killedId)!;
      assert.equal(gone.status, "failed");
      assert.equal(gone.error, INTERRUPTED_ERROR);
      assert.equal(store.runsOf(killedId).length, 1, "its completed run is kept");
      assert.equal(rows.find((r) => r.id === aliveId)!.status, "running", "a live owner's stays");
    } finally {
      store.close();
    }
  } finally {
    alive.child.kill("SIGKILL");
    await alive.child.status;
    await alive.child.stdout.cancel().catch(() => {});
    await killed.child.stdout.cancel().catch(() => {});
  }
});

Deno.test("the cache is cleared under the permissions of deno task webapp (no VACUUM INTO)", async () => {
  await using t = await tempEnv();
  const db = join(t.root, "results.db");
  const backup = join(t.root, "backup.db");
  const r = await runDeno([
    "run",
    ...programPermissions("webapp"),
    "tests/security/_store_child.ts",
    "clear",
    db,
    backup,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { deleted: 1 });
  const copy = ResultsStore.open(backup);
  try {
    assert.equal(copy.allResults().length, 1, "the backup holds what was cleared");
  } finally {
    copy.close();
  }
});
