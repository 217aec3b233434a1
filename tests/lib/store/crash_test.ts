import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { INTERRUPTED_ERROR, ResultsStore } from "../../../lib/store/mod.ts";
import { REPO_ROOT, tempEnv } from "../../_helpers.ts";

Deno.test("a writer killed mid-transaction leaves a consistent database with every completed run", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "crash.db");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(REPO_ROOT, "tests/lib/store/_fixtures/writer.ts"), path, "3"],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  assert.match(text, /^in-transaction \d+/);
  child.kill("SIGKILL");
  await reader.cancel();
  const status = await child.status;
  assert.equal(status.signal, "SIGKILL");

  const check = new DatabaseSync(path);
  assert.deepEqual({ ...check.prepare("PRAGMA integrity_check").get() as object }, {
    integrity_check: "ok",
  });
  check.close();
  const store = ResultsStore.open(path);
  try {
    const [result] = store.allResults();
    // The uncommitted status change is gone; the result its killed writer left running is
    // marked interrupted at this next start.
    assert.equal(result?.status, "failed");
    assert.equal(result?.error, INTERRUPTED_ERROR);
    assert.equal(store.interrupted, 1);
    assert.deepEqual(store.runsOf(result!.id).map((r) => r.run_index), [0, 1, 2]);
  } finally {
    store.close();
  }
});
