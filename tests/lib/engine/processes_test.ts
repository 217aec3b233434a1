import assert from "node:assert/strict";
import {
  descendantsOf,
  isAlive,
  parseProcStat,
  readProcTable,
} from "../../../lib/engine/processes.ts";

Deno.test("parseProcStat() reads pid, ppid and state even when the name has spaces and parentheses", () => {
  assert.deepEqual(parseProcStat("123 (llama-server) S 45 123 123 0 -1"), [123, 45, "S"]);
  assert.deepEqual(parseProcStat("7 (a (b) c) Z 1 7 7"), [7, 1, "Z"]);
  assert.equal(parseProcStat("garbage"), null);
});

Deno.test("descendantsOf() walks children and grandchildren but not siblings", () => {
  const table = new Map([[10, 1], [11, 10], [12, 10], [13, 11], [20, 1], [21, 20]]);
  assert.deepEqual(descendantsOf(table, 10).sort(), [11, 12, 13]);
  assert.deepEqual(descendantsOf(table, 13), []);
});

Deno.test("readProcTable() sees a child process and its grandchild", async () => {
  const child = new Deno.Command("sh", {
    args: ["-c", "sleep 30 & wait"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    let found: number[] = [];
    for (let i = 0; i < 100 && found.length === 0; i++) {
      found = descendantsOf(readProcTable(), child.pid);
      if (found.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(found.length, 1);
    assert.ok(isAlive(found[0]!));
    Deno.kill(found[0]!, "SIGKILL");
  } finally {
    await child.status;
  }
  assert.equal(isAlive(child.pid), false);
});
