import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../_helpers.ts";
import { testPostgres } from "../_postgres.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";
import { islandsByName } from "../../lib/http/fw/islands.ts";
import { manifest } from "../../manifest.gen.ts";

const dec = new TextDecoder();

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

Deno.test("deno task bundle writes one file per program and pins the natives", async () => {
  const res = await bundle();
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /bundle: .*bench\.js .* from cli\.ts/);
  assert.match(res.stdout, /bundle: .*tray\.js .* from tray\.ts/);
  assert.match(res.stdout, /bundle: .*webapp\.js .* from webapp\.ts/);
  const tray = await Deno.readTextFile(join(dist, "tray.js"));
  assert.match(tray, /import\("npm:systray2@2\.1\.4"\)/);
  assert.doesNotMatch(tray, /["']systray2["']/);
});

Deno.test("deno task bundle refuses an unknown program name", async () => {
  const res = await sh("bash", ["tools/bundle.sh", "frob"], { env: { BUNDLE_DIR: dist } });
  assert.equal(res.code, 2);
  assert.match(res.stderr, /unknown program 'frob'/);
});

Deno.test("the bench, tray and web app bundles print their help from an empty folder", async () => {
  assert.equal((await bundle()).code, 0);
  const programs = [
    ["bench", /Usage: localbench/],
    ["tray", /Usage: deno task tray/],
    ["webapp", /Usage: deno task webapp/],
  ] as const;
  for (const [name, text] of programs) {
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

/**
 * Reads the child's output until a line matches `re` (or `ms` pass, or the output ends), then
 * keeps draining it in the background; resolves to the match or null, plus everything read.
 */
async function waitForLine(
  stream: ReadableStream<Uint8Array>,
  re: RegExp,
  ms: number,
): Promise<{ match: RegExpMatchArray | null; text: () => string; drained: Promise<void> }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let match: RegExpMatchArray | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((r) => timer = setTimeout(() => r(null), ms));
  try {
    while (match === null) {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk === null || chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      match = text.match(re);
    }
  } finally {
    clearTimeout(timer);
  }
  const drained = (async () => {
    try {
      for (let c = await reader.read(); !c.done; c = await reader.read()) {
        text += decoder.decode(c.value, { stream: true });
      }
    } catch {
      // the stream was cancelled
    }
  })();
  return { match, text: () => text, drained };
}

Deno.test({
  name: "the web app bundle serves /api/status and its prebuilt islands from an empty folder",
  async fn() {
    const res = await bundle();
    assert.equal(res.code, 0, res.stderr);
    const islands = Object.keys(islandsByName(manifest.islands)).map((name) => `${name}.js`);
    for (const file of ["boot.js", ...islands]) {
      const stat = await Deno.stat(join(dist, "static", "_islands", file));
      assert.ok(stat.isFile, file);
    }
    // The log monitor's regex engine travels beside the bundle (no import map there).
    for (const file of ["build/wasm/re2.wasm", "build/wasm/re2.js", "build/src/re2.js"]) {
      assert.ok((await Deno.stat(join(dist, "assets", "re2-wasm", file))).isFile, file);
    }
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "-A", join(dist, "webapp.js"), "--port", "0"],
      cwd: empty,
      env: {
        NO_COLOR: "1",
        LOCALBENCH_DATA_DIR: join(work, "data"),
        LOCALBENCH_CONFIG_DIR: join(work, "config"),
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = new Response(child.stderr).text();
    const out = await waitForLine(
      child.stdout,
      /Dashboard listening on (http:\/\/127\.0\.0\.1:\d+)\//,
      30_000,
    );
    try {
      if (out.match === null) {
        try {
          child.kill("SIGTERM");
        } catch {
          // it has ended already
        }
        assert.fail(`the bundled web app did not start within 30 s: ${await stderr}`);
      }
      const base = out.match[1]!;
      const get = async (path: string) => {
        const r = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
        return {
          status: r.status,
          type: r.headers.get("content-type") ?? "",
          body: await r.text(),
        };
      };

      const status = await get("/api/status");
      assert.equal(status.status, 200, status.body);
      assert.equal(JSON.parse(status.body).status, "idle");

      assert.equal((await get("/")).status, 200);
      // The Benchmark page always holds an island (Home only shows charts once there are results).
      const page = await get("/benchmark");
      assert.equal(page.status, 200);
      const boot = page.body.match(/<script type="module" src="([^"]+\/boot\.js)"/)?.[1];
      assert.equal(boot, "/_islands/boot.js");
      const names = [...page.body.matchAll(/data-island="([\w/]+)"/g)].map((m) => m[1]!);
      assert.ok(names.includes("BenchmarkPanel"), page.body);
      const scripts = [boot, ...names.map((n) => boot.replace(/boot\.js$/, `${n}.js`))];
      // The plugin host pages' and the plugins' islands, served from the same dist/static/.
      scripts.push(...islands.map((f) => `/_islands/${f}`));
      for (const path of scripts) {
        const r = await get(path);
        assert.equal(r.status, 200, path);
        assert.match(r.type, /javascript/, path);
        assert.ok(r.body.length > 0, path);
      }
      const css = await get("/styles.css");
      assert.equal(css.status, 200);
      const pluginCss = await get("/_islands/plugins.css");
      assert.equal(pluginCss.status, 200);
      assert.match(pluginCss.body, /\/\* plugins\/logmonitor\/styles\.css \*\//);
      const login = await get("/plugins/login");
      assert.equal(login.status, 200);
      assert.match(login.body, /data-island="LoginForm"/);
    } finally {
      try {
        child.kill("SIGTERM");
      } catch {
        // it has ended already
      }
      const killer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch {
          // it has ended already
        }
      }, 10_000);
      await child.status;
      clearTimeout(killer);
      await out.drained;
      await stderr;
    }
    assert.deepEqual([...Deno.readDirSync(empty)], []);
  },
});

Deno.test({
  name: "a copied dist/ writes all four reports, and exits 1 when one cannot be written",
  sanitizeResources: false,
  async fn() {
    assert.equal((await bundle()).code, 0);
    const copy = join(work, "copied", "dist");
    await Deno.mkdir(join(work, "copied"), { recursive: true });
    const cp = await sh("cp", ["-r", dist, copy]);
    assert.equal(cp.code, 0, cp.stderr);
    const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 0 });
    const run = (data: string) =>
      sh(Deno.execPath(), [
        "run",
        "--no-config",
        "-A",
        join(copy, "bench.js"),
        ...["--use-rest-api", "--base-url", d.url, "--runs", "1", "--max-tokens", "8"],
        ...["--include-models", "qwen3-4b", "--n-parallel", "1"],
      ], {
        cwd: empty,
        env: { LOCALBENCH_DATA_DIR: join(work, data), LOCALBENCH_CONFIG_DIR: join(work, "cfg") },
      });
    try {
      let res = await run("copied-data");
      assert.equal(res.code, 0, res.stderr + res.stdout);
      for (const format of ["JSON", "CSV", "PDF", "HTML"]) {
        const file = new RegExp(`Report \\(${format}\\): (\\S+)`).exec(res.stdout)?.[1];
        assert.ok(file, `${format}: ${res.stdout}`);
        assert.ok((await Deno.stat(file)).size > 0);
      }
      const html = /Report \(HTML\): (\S+)/.exec(res.stdout)![1]!;
      assert.match(await Deno.readTextFile(html), /Chart\.js v4/, "chart.js is inlined");

      // Without chart.js beside it (and no node_modules around), the HTML report fails: exit 1.
      await Deno.remove(join(copy, "assets", "chart.umd.min.js"));
      res = await run("broken-data");
      assert.equal(res.code, 1, res.stdout);
      assert.match(res.stdout, /Report \(PDF\): /);
      assert.match(
        res.stdout,
        /Cannot write the HTML report: Cannot find chart\.js's browser build/,
      );
      assert.match(res.stderr, /localbench: error: A report could not be written .* --export-only/);
    } finally {
      await d.close();
    }
    assert.deepEqual([...Deno.readDirSync(empty)], []);
  },
});

Deno.test({
  name: "the bench bundle uses a PostgreSQL store through the worker bundled beside it",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const res = await bundle();
    assert.equal(res.code, 0, res.stderr);
    const url = await (await testPostgres()).createDatabase();
    const out = await sh(Deno.execPath(), [
      "run",
      "-A",
      join(dist, "bench.js"),
      "--list-cache",
      "--json",
      "--store",
      url,
    ], { cwd: empty, env: { LOCALBENCH_DATA_DIR: join(work, "data") } });
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), { count: 0, results: [] });
  },
});

Deno.test("the bundle tests clean up their folder", async () => {
  await bundle();
  await Deno.remove(work, { recursive: true });
});
