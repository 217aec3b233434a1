import assert from "node:assert/strict";
import { ConfigFile, runHostCommand, UserStore } from "../../../lib/host/mod.ts";

async function run(argv: string[], configFile: string, stdin = "") {
  const out: string[] = [];
  await runHostCommand(argv, {
    configFile,
    readStdin: () => Promise.resolve(stdin),
    print: (l) => out.push(l),
  });
  return out;
}

Deno.test("user add reads the password from stdin and stores it hashed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cfg = `${dir}/config.yaml`;
    await run(["user", "add", "ann", "--permissions", "status,control"], cfg, "pw-123\n");
    const users = new UserStore(new ConfigFile(cfg));
    assert.deepEqual((await users.verifyLogin("ann", "pw-123"))?.permissions, [
      "STATUS",
      "CONTROL",
    ]);
    assert.ok(!(await Deno.readTextFile(cfg)).includes("pw-123"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("apikey create prints the new key alone and apikey revoke removes it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cfg = `${dir}/config.yaml`;
    await run(["user", "add", "bob", "--permissions", "STATUS"], cfg, "pw");
    const out = await run(["apikey", "create", "--user", "bob"], cfg);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /^lb_[A-Za-z0-9_-]{43}$/);
    const users = new UserStore(new ConfigFile(cfg));
    assert.equal((await users.verifyKey(out[0]!))?.user, "bob");
    await run(["apikey", "revoke", out[0]!], cfg);
    assert.equal(await users.verifyKey(out[0]!), null);
    await assert.rejects(run(["apikey", "revoke", out[0]!], cfg), /no such key/);
    // An older key may start with "-": after "--" it is a key, not an option.
    await assert.rejects(run(["apikey", "revoke", "--", "-2abc"], cfg), /no such key/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("account commands reject unknown users, permissions and usage", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cfg = `${dir}/config.yaml`;
    await assert.rejects(run(["apikey", "create", "--user", "ghost"], cfg), /no user 'ghost'/);
    await assert.rejects(
      run(["user", "add", "x", "--permissions", "ROOT"], cfg, "pw"),
      /Unknown permission 'ROOT'/,
    );
    await assert.rejects(run(["user", "add", "x"], cfg, "pw"), /--permissions/);
    await assert.rejects(
      run(["user", "add", "x", "--permissions", "STATUS"], cfg, ""),
      /password is empty/,
    );
    await assert.rejects(run(["user", "frobnicate"], cfg), /Unknown command/);
    // An unknown flag or a flag without its value is a usage error (exit code 2), not a crash.
    await assert.rejects(run(["user", "list", "--frobnicate"], cfg), {
      name: "UsageError",
      message: "Cannot parse arguments: unknown argument '--frobnicate'",
    });
    await assert.rejects(run(["apikey", "create", "--user"], cfg), {
      name: "UsageError",
      message: /^Cannot parse arguments: --user needs a value/,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
