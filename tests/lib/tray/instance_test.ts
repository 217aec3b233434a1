import assert from "node:assert/strict";
import { join } from "node:path";
import { claimTray, trayLockDir, trayLockPath } from "../../../lib/tray/mod.ts";
import { tempEnv } from "../../_helpers.ts";

Deno.test("claimTray() gives one tray per URL, however the URL is written", async () => {
  await using t = await tempEnv();
  const env = (n: string) => (n === "XDG_RUNTIME_DIR" ? join(t.root, "run") : t.env(n));
  const first = await claimTray("http://localhost:1234", env);
  assert.equal(first.owner, true);
  assert.deepEqual(await claimTray("http://LOCALHOST:1234/", env), { owner: false, pid: Deno.pid });
  const other = await claimTray("http://127.0.0.1:8080", env);
  assert.equal(other.owner, true, "another URL has its own tray");
  for (const c of [first, other]) if (c.owner) await c.release();
  assert.deepEqual([...Deno.readDirSync(join(t.root, "run", "localbench"))], []);
  const again = await claimTray("http://localhost:1234", env);
  assert.equal(again.owner, true, "free again once released");
  if (again.owner) await again.release();
});

Deno.test("claimTray() takes over the socket file of a tray that died", async () => {
  await using t = await tempEnv();
  const env = (n: string) => (n === "XDG_RUNTIME_DIR" ? join(t.root, "run") : t.env(n));
  const path = await trayLockPath("http://localhost:1234", env);
  await Deno.mkdir(join(path, ".."), { recursive: true });
  // A tray killed hard leaves its socket file behind.
  const dead = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `Deno.listen({ transport: "unix", path: ${JSON.stringify(path)} }); ` +
      `console.log("up"); setInterval(() => {}, 1000);`,
    ],
    stdout: "piped",
  }).spawn();
  await dead.stdout.getReader().read();
  dead.kill("SIGKILL");
  await dead.status;
  assert.ok((await Deno.lstat(path)).isSocket);
  const claim = await claimTray("http://localhost:1234", env);
  assert.equal(claim.owner, true);
  if (claim.owner) await claim.release();
});

Deno.test("the tray sockets live in XDG_RUNTIME_DIR, else in the data folder", async () => {
  await using t = await tempEnv();
  assert.equal(trayLockDir(t.env), join(t.dataDir, "run"));
  const env = (n: string) => (n === "XDG_RUNTIME_DIR" ? "/run/user/7" : t.env(n));
  assert.equal(trayLockDir(env), "/run/user/7/localbench");
  assert.match(await trayLockPath("http://localhost:1234", env), /\/tray-[0-9a-f]{16}\.sock$/);
});
