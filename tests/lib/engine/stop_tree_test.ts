import assert from "node:assert/strict";
import { descendantsOf, isAlive, readProcTable } from "../../../lib/engine/processes.ts";
import { stopProcessTree } from "../../../lib/engine/stop_tree.ts";

async function spawnTree(script: string): Promise<{ child: Deno.ChildProcess; kids: number[] }> {
  const child = new Deno.Command("bash", { args: ["-c", script], stdout: "null", stderr: "null" })
    .spawn();
  let kids: number[] = [];
  for (let i = 0; i < 100 && kids.length < 2; i++) {
    await new Promise((r) => setTimeout(r, 20));
    kids = descendantsOf(readProcTable(), child.pid);
  }
  assert.equal(kids.length, 2, "two background sleeps started");
  return { child, kids };
}

Deno.test("stopProcessTree() ends a parent and the children it leaves behind", async () => {
  // bash exits on SIGTERM without killing its background jobs: they would become orphans.
  const { child, kids } = await spawnTree("sleep 60 & sleep 60 & wait");
  const leftovers = await stopProcessTree(child, { graceMs: 2_000 });
  assert.deepEqual(leftovers.sort(), [...kids].sort());
  assert.ok(kids.every((pid) => !isAlive(pid)), "no orphan left running");
  assert.equal(isAlive(child.pid), false);
});

Deno.test("stopProcessTree() uses SIGKILL when the parent ignores SIGTERM", async () => {
  const { child, kids } = await spawnTree(
    "trap '' TERM; sleep 60 & sleep 60 & wait",
  );
  const started = Date.now();
  await stopProcessTree(child, { graceMs: 300 });
  const status = await child.status;
  assert.equal(status.signal, "SIGKILL");
  assert.ok(Date.now() - started < 5_000);
  assert.ok(kids.every((pid) => !isAlive(pid)));
});

Deno.test("stopProcessTree() is harmless on a process that already exited", async () => {
  const child = new Deno.Command("true", { stdout: "null", stderr: "null" }).spawn();
  await child.status;
  assert.deepEqual(await stopProcessTree(child, { graceMs: 100 }), []);
});
