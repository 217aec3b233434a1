import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";

const dec = new TextDecoder();
const hasWebapp = await Deno.stat(join(REPO_ROOT, "webapp.ts")).then(() => true, () => false);
// The web app's bundle still builds its islands from source at startup (even with --no-build),
// so from an empty folder it fails; opt in once webapp.ts serves a prebuilt static/ beside it.
const webappBundleRuns = Deno.env.get("LOCALBENCH_TEST_WEBAPP_BUNDLE") === "1";

async function sh(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: opts.cwd ?? REPO_ROOT,
    env: { NO_COLOR: "1", ...opts.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Bundles into a temp folder once for all tests of this file. */
const work = await Deno.makeTempDir({ prefix: "localbench-bundle-" });
const dist = join(work, "dist");
const empty = join(work, "empty");
await Deno.mkdir(empty);
let built: Promise<{ code: number; stdout: string; stderr: string }> | null = null;
const bundle = () => (built ??= sh("bash", ["tools/bundle.sh"], { env: { BUNDLE_DIR: dist } }));

Deno.test("deno task bundle writes one file per existing program and pins the natives", async () => {
  const res = await bundle();
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /bundle: .*bench\.js .* from cli\.ts/);
  assert.match(res.stdout, /bundle: .*tray\.js .* from tray\.ts/);
  if (!hasWebapp) assert.match(res.stderr, /skipped .*webapp\.js: webapp\.ts is missing/);
  const tray = await Deno.readTextFile(join(dist, "tray.js"));
  assert.match(tray, /import\("npm:systray2@2\.1\.4"\)/);
  assert.doesNotMatch(tray, /["']systray2["']/);
});

Deno.test("deno task bundle refuses an unknown program name", async () => {
  const res = await sh("bash", ["tools/bundle.sh", "frob"], { env: { BUNDLE_DIR: dist } });
  assert.equal(res.code, 2);
  assert.match(res.stderr, /unknown program 'frob'/);
});

Deno.test("the bench and tray bundles print their help from an empty folder", async () => {
  assert.equal((await bundle()).code, 0);
  for (
    const [name, text] of [["bench", /Usage: localbench/], [
      "tray",
      /Usage: deno task tray/,
    ]] as const
  ) {
    const res = await sh(Deno.execPath(), [
      "run",
      "--no-config",
      "-A",
      join(dist, `${name}.js`),
      "--help",
    ], {
      cwd: empty,
    });
    assert.equal(res.code, 0, `${name}: ${res.stderr}`);
    assert.match(res.stdout, text);
  }
  assert.deepEqual([...Deno.readDirSync(empty)], []);
});

Deno.test({
  name: "the web app bundle answers /api/status from an empty folder",
  ignore: !hasWebapp || !webappBundleRuns,
  async fn() {
    assert.equal((await bundle()).code, 0);
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (probe.addr as Deno.NetAddr).port;
    probe.close();
    const data = join(work, "data");
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        "-A",
        join(dist, "webapp.js"),
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
      ],
      cwd: empty,
      env: {
        NO_COLOR: "1",
        LOCALBENCH_DATA_DIR: data,
        LOCALBENCH_CONFIG_DIR: join(work, "config"),
      },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const stderr = new Response(child.stderr).text();
    try {
      let body: { status?: string } | null = null;
      for (let i = 0; i < 100 && body === null; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/status`);
          body = await res.json();
        } catch {
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      if (body === null) {
        try {
          child.kill("SIGTERM");
        } catch {
          // it has ended already
        }
      }
      assert.ok(body, `the bundled web app did not answer within 20 s: ${await stderr}`);
      assert.ok(["idle", "running", "paused"].includes(body.status ?? ""));
    } finally {
      try {
        child.kill("SIGTERM");
      } catch {
        // it has ended already
      }
      await child.status;
      await stderr;
    }
  },
});

Deno.test("the bundle tests clean up their folder", async () => {
  await bundle();
  await Deno.remove(work, { recursive: true });
});
