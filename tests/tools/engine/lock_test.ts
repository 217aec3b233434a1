import assert from "node:assert/strict";
import { AppError } from "../../../lib/error.ts";
import { acquireLock } from "../../../tools/engine/lock.ts";

Deno.test("acquireLock() makes a second setup wait until the first releases", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/setup.lock`;
  try {
    const release = await acquireLock(path);
    assert.equal(await Deno.readTextFile(path), String(Deno.pid));
    const waited: number[] = [];
    const second = acquireLock(path, { intervalMs: 10, onWait: (pid) => waited.push(pid) });
    await new Promise((r) => setTimeout(r, 50));
    await release();
    const releaseSecond = await second;
    assert.deepEqual(waited, [Deno.pid]);
    await releaseSecond();
    assert.deepEqual([...Deno.readDirSync(dir)], [], "no lock or temp file left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock() takes over a lock left by a process that no longer runs", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/setup.lock`;
  try {
    await Deno.writeTextFile(path, "999999");
    const release = await acquireLock(path, { isAlive: () => false });
    assert.equal(await Deno.readTextFile(path), String(Deno.pid));
    await release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock() gives up with setup_locked when the holder never finishes", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/setup.lock`;
  try {
    await Deno.writeTextFile(path, "4242");
    await assert.rejects(
      acquireLock(path, { isAlive: () => true, timeoutMs: 30, intervalMs: 10 }),
      (err: unknown) => err instanceof AppError && err.code === "setup_locked",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
