import assert from "node:assert/strict";
import { programPermissions, REPO_ROOT, tempEnv } from "./_helpers.ts";
import { startWebappProcess } from "./_webapp_process.ts";
import { PASSWORD, testPostgres } from "./_postgres.ts";

async function webapp(args: string[], env: Record<string, string>, stdin = "") {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "webapp.ts", ...args],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("webapp.ts adds users and creates and revokes API keys of the plugin host", async () => {
  await using t = await tempEnv();
  let r = await webapp(
    ["user", "add", "alice", "--permissions", "STATUS,CONTROL"],
    t.vars,
    "s3cret\n",
  );
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /s3cret/, "the password is never echoed");

  // The README's form: `deno task webapp -- user add ...` hands over a leading `--`.
  r = await webapp(["--", "user", "add", "bob", "--permissions", "STATUS"], t.vars, "pw-of-bob\n");
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /User bob saved with STATUS/);

  r = await webapp(["apikey", "create", "--user", "alice"], t.vars);
  assert.equal(r.code, 0, r.stderr);
  const key = r.stdout.trim();
  assert.match(key, /^\S{20,}$/, "the key alone on one line");

  const config = await Deno.readTextFile(`${t.dataDir}/host/config.yaml`);
  assert.ok(!config.includes(key), "keys are stored hashed");
  assert.ok(!config.includes("s3cret"), "passwords are stored hashed");

  r = await webapp(["apikey", "revoke", key], t.vars);
  assert.equal(r.code, 0, r.stderr);
  r = await webapp(["apikey", "revoke", key], t.vars);
  assert.notEqual(r.code, 0, "revoking an unknown key fails");
});

Deno.test({
  name: "webapp.ts --dev builds the islands at start, then serves them",
  sanitizeResources: false,
  async fn() {
    await using t = await tempEnv();
    await using app = await startWebappProcess(
      ["-A"],
      ["--dev", "--port", "0", "--no-plugins"],
      t.vars,
    );
    assert.match(app.output, /dev: built \d+ islands in \d+ ms/, "built before serving");
    const boot = await fetch(`${app.url}_islands/boot.js`);
    assert.equal(boot.status, 200);
    await boot.body?.cancel();
  },
});

Deno.test({
  name: "webapp.ts --store postgres://… serves the dashboard from that store",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using t = await tempEnv();
    const pg = await testPostgres();
    const store = await pg.createDatabase();
    await using app = await startWebappProcess(
      programPermissions("webapp"),
      ["--port", "0", "--no-plugins", "--store", store],
      t.vars,
    );
    const stats = await (await fetch(`${app.url}api/dashboard/stats`)).json();
    assert.equal(stats.total_runs, 0);
    // The store the dashboard opened is PostgreSQL's: its schema is there now.
    const tables = await pg.admin(
      new URL(store).pathname.slice(1),
      "SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_schema = 'localbench'",
    );
    assert.ok((tables[0]!.n as number) >= 8, JSON.stringify(tables));
    assert.ok(!app.output.includes(PASSWORD), "the password is never printed");
  },
});
