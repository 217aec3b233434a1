/**
 * The real command line (`cli.ts` with the permissions of `deno task bench`). Failures a user causes or meets: each prints one
 * sentence saying what happened and what to do, exits with the documented code (1 error, 2 bad
 * argument) and never shows a stack trace or a web page. What it loads at start, the cache
 * commands and the user's defaults.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { programPermissions, REPO_ROOT, runDeno, tempEnv, writeJson } from "./_helpers.ts";
import { staticGraph } from "../tools/import_graph.ts";
import { createLlamaCppDouble } from "./doubles/_llamacpp_double.ts";
import { startLmStudioDouble } from "./doubles/lmstudio_server.ts";

const TOKEN = "sk-lm-abcd1234:secretsecretsecret1234";

/** `cli.ts` with the permissions of `deno task bench`. */
const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];

async function cli(args: string[], vars: Record<string, string> = {}) {
  return await runDeno([...BENCH, ...args], { env: vars });
}

/** One `localbench: error:` line, no stack frame, no markup. */
function assertOneSentence(stderr: string, pattern: RegExp): void {
  const errors = stderr.split("\n").filter((l) => l.startsWith("localbench: error:"));
  assert.equal(errors.length, 1, stderr);
  assert.match(errors[0]!, pattern);
  assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");
  assert.doesNotMatch(stderr, /<(!doctype|html|head|body|h1|p|div)[\s>]/i, "no markup");
}

/** A web server that is not a model server: every path is an HTML 404 page. */
function htmlServer(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response("<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>", {
        status: 404,
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
}

Deno.test("a web server that is not a model server is named as such for every backend", async () => {
  await using env = await tempEnv();
  const server = htmlServer();
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const backend of ["sdk", "rest", "openai"]) {
      const r = await cli(["--backend", backend, "--base-url", url], env.vars);
      assert.equal(r.code, 1, r.stderr);
      assertOneSentence(
        r.stderr,
        /is not a model server \(GET \/v1\/models: HTTP 404, text\/html.*\): point the tool at the model server with --base-url URL/,
      );
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("an OpenAI-compatible server reached with an LM Studio backend suggests --backend openai", async () => {
  await using env = await tempEnv();
  const double = createLlamaCppDouble({ seed: 1 });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, double.handler);
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const args of [["--base-url", url], ["--use-rest-api", "--base-url", url]]) {
      const r = await cli(args, env.vars);
      assert.equal(r.code, 1, r.stderr);
      assertOneSentence(
        r.stderr,
        new RegExp(
          `is an OpenAI-compatible server .*: run with --backend openai --base-url ${url}`,
        ),
      );
    }
  } finally {
    double.close();
    await server.shutdown();
  }
});

Deno.test("a token-protected LM Studio names --api-token, and the SDK authenticates with it", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0, token: TOKEN, tokenDelayMs: 0 });
  try {
    for (const args of [["--use-rest-api"], []]) {
      const r = await cli([...args, "--base-url", d.url], env.vars);
      assert.equal(r.code, 1, r.stderr);
      assertOneSentence(r.stderr, /requires an API token: pass it with --api-token TOKEN/);
      const wrong = await cli(
        [...args, "--base-url", d.url, "--api-token", "sk-lm-abcd1234:wrongwrongwrongwrong0"],
        env.vars,
      );
      assert.equal(wrong.code, 1, wrong.stderr);
      assertOneSentence(wrong.stderr, /refused the API token: pass a valid one .*--api-token/);
    }
    const odd = await cli(["--base-url", d.url, "--api-token", "plain-secret"], env.vars);
    assert.equal(odd.code, 2, odd.stderr);
    assertOneSentence(odd.stderr, /not an LM Studio token \(sk-lm-<id>:<key>/);

    const ok = await cli(
      ["--base-url", d.url, "--api-token", TOKEN, "--runs", "1", "--include-models", "qwen3-4b"],
      env.vars,
    );
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /2 measured, 0 failed/, "both variants of qwen3-4b");
  } finally {
    await d.close();
  }
});

Deno.test("a model server answering 400 is exit 1 with its message, not the bad-argument exit 2", async () => {
  await using env = await tempEnv();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ error: { message: "Invalid model identifier" } }, { status: 400 }),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const r = await cli(["--backend", "openai", "--base-url", url], env.vars);
    assert.equal(r.code, 1, r.stderr);
    assertOneSentence(r.stderr, /Invalid model identifier \(HTTP 400\)$/);
    assert.doesNotMatch(r.stderr, /see --help/, "not presented as a bad argument");
    const bad = await cli(["--backend", "openai", "--base-url", url, "--runs", "0"], env.vars);
    assert.equal(bad.code, 2, "a bad argument of ours is still exit 2");
    assertOneSentence(bad.stderr, /runs.*\(see --help\)$/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a model no filter matches is named with what the server has", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 0 });
  try {
    const r = await cli(["--base-url", d.url, "--include-models", "no-such-model"], env.vars);
    assert.equal(r.code, 1, r.stderr);
    assertOneSentence(
      r.stderr,
      /No model of LM Studio SDK at .* matches --include-models 'no-such-model': it has .*qwen\/qwen3-4b.*; check the names/,
    );
    assert.doesNotMatch(r.stdout + r.stderr, /no report was written/);
  } finally {
    await d.close();
  }
});

/** A server that accepts connections and never answers. */
function silentListener(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) held.push(conn);
    } catch { /* closed */ }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      for (const c of held) c.close();
      listener.close();
    },
  };
}

Deno.test("a server that never answers stops the run after --request-timeout with a hint", async () => {
  await using env = await tempEnv();
  const s = silentListener();
  try {
    for (const backend of ["openai", "sdk"]) {
      const t0 = Date.now();
      const r = await cli(
        [
          "--backend",
          backend,
          "--base-url",
          `http://127.0.0.1:${s.port}`,
          "--request-timeout",
          "1",
        ],
        env.vars,
      );
      assert.equal(r.code, 1, r.stderr);
      assert.ok(Date.now() - t0 < 15_000);
      assertOneSentence(
        r.stderr,
        /sent nothing for 1 s when asked to list models: .* or wait longer with --request-timeout SECONDS/,
      );
      assert.doesNotMatch(r.stderr, /waiting for the server/, "no wait line without a terminal");
    }
  } finally {
    s.close();
  }
});

Deno.test("on a terminal a silent server shows 'waiting for the server… Ns' while the run waits", async () => {
  await using env = await tempEnv();
  const s = silentListener();
  try {
    // `script` gives the command a pseudo-terminal, as a person's shell does.
    const cmd = `'${Deno.execPath()}' run -A cli.ts --backend openai --base-url ` +
      `http://127.0.0.1:${s.port} --request-timeout 3`;
    const out = await new Deno.Command("script", {
      args: ["-qec", cmd, "/dev/null"],
      env: { ...env.vars, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 1, text);
    assert.match(text, /waiting for the server… 1s \(list models\)/);
    assert.match(text, /waiting for the server… 2s \(list models\)/);
    assert.match(text, /sent nothing for 3 s/);
  } finally {
    s.close();
  }
});

Deno.test("a damaged store and an unwritable export path are one sentence and exit 1", async () => {
  await using env = await tempEnv();
  await Deno.mkdir(env.dataDir, { recursive: true });
  const db = join(env.dataDir, "results.db");
  await Deno.writeTextFile(db, "junk\n");
  let r = await cli(["--list-cache"], env.vars);
  assert.equal(r.code, 1, r.stderr);
  assertOneSentence(
    r.stderr,
    new RegExp(`${db} is damaged or not a SQLite database: move it aside`),
  );
  r = await cli(["--export-cache", "cache.json"], env.vars);
  assert.equal(r.code, 1, r.stderr);
  assertOneSentence(r.stderr, /is damaged or not a SQLite database/);

  await Deno.remove(db);
  const file = join(env.root, "a-file");
  await Deno.writeTextFile(file, "");
  for (const target of ["/proc/x.json", join(file, "x.json")]) {
    r = await cli(["--export-cache", target], env.vars);
    assert.equal(r.code, 1, r.stderr);
    assertOneSentence(
      r.stderr,
      new RegExp(`Cannot write the export to ${target} \\(.+\\): give --export-cache a file`),
    );
  }
});

Deno.test("cli.ts loads only the command line at start: no engine, client, exporter or their packages", async () => {
  const graph = await staticGraph(REPO_ROOT, "cli.ts");
  // commander parses the flags; valibot is the configuration schema every start checks the files
  // against (its cost is in perf/startup.ts).
  assert.deepEqual(graph.npm, ["commander", "valibot"]);
  const heavy = graph.files.filter((f) =>
    /^lib\/(bench|reports|modelserver|engine|dashboard|host)\//.test(f)
  );
  assert.deepEqual(heavy, []);
  assert.ok(graph.files.includes("lib/cli/main.ts"), graph.files.join(", "));
});

Deno.test("cli.ts still loads the engine and the exporters when a command needs them", async () => {
  await using t = await tempEnv();
  // --export-only on an empty store reaches the report command (loaded on demand) and fails there.
  const r = await runDeno([...BENCH, "--export-only"], { env: t.vars });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /Cannot export: no stored results match the filters/);
});

Deno.test("cli.ts --list-cache and --export-cache work on an empty and a filled store", async () => {
  await using t = await tempEnv();
  let r = await runDeno([...BENCH, "--list-cache"], { env: t.vars });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /The cache is empty/);

  const fill = `
    import { ResultsStore } from "${join(REPO_ROOT, "lib/store/mod.ts")}";
    const s = ResultsStore.open(Deno.args[0]);
    const id = s.beginResult({ model: { model_key: "org/m@q8_0", model_name: "org/m", quantization: "q8_0" },
      params_hash: "abc123", backend: "rest", params: { prompt: "p" } });
    s.addRun(id, { run_index: 0, tokens_per_sec: 41.5 });
    s.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 41.5, ttft_ms_mean: 120, runs_ok: 1 } });
    s.close();`;
  const script = join(t.root, "fill.ts");
  await Deno.writeTextFile(script, fill);
  await Deno.mkdir(t.dataDir, { recursive: true });
  r = await runDeno(["run", "-A", script, join(t.dataDir, "results.db")]);
  assert.equal(r.code, 0, r.stderr);

  r = await runDeno([...BENCH, "--list-cache"], { env: t.vars });
  assert.match(
    r.stdout,
    /org\/m\s+q8_0\s+rest\s+unknown machine\s+configured prompt\s+41\.50\s+120\.0\s+1 .* abc123/,
  );

  r = await runDeno([...BENCH, "--export-cache", "cache.json"], { env: t.vars });
  assert.equal(r.code, 0, r.stderr);
  const file = join(t.dataDir, "results", "cache.json");
  assert.match(r.stdout, new RegExp(`Exported 1 cached result\\(s\\) to ${file}`));
  const data = JSON.parse(await Deno.readTextFile(file));
  assert.equal(data.results[0].model_key, "org/m@q8_0");
  assert.equal(data.results[0].runs[0].tokens_per_sec, 41.5);
  assert.equal(data.results[0].params.prompt, "p");

  // --json: one document on standard output for each listing action.
  r = await cli(["--list-cache", "--json"], t.vars);
  assert.equal(r.code, 0, r.stderr);
  const listed = JSON.parse(r.stdout);
  assert.equal(listed.count, 1);
  assert.deepEqual(
    [
      listed.results[0].model_key,
      listed.results[0].tokens_per_sec_mean,
      listed.results[0].params_hash,
    ],
    ["org/m@q8_0", 41.5, "abc123"],
  );
  r = await cli(["--export-cache", "again.json", "--json"], t.vars);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    path: join(t.dataDir, "results", "again.json"),
    count: 1,
  });
});

Deno.test("--json gives one JSON document on standard output for every listing action", async () => {
  await using t = await tempEnv();
  let r = await cli(["--list-cache", "--json"], t.vars);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { count: 0, results: [] });
  r = await cli(["--list-presets", "--json"], t.vars);
  assert.equal(r.code, 0, r.stderr);
  const presets = JSON.parse(r.stdout);
  assert.ok(presets.presets.some((p: { name: string }) => p.name === "quick_test"));
  assert.deepEqual([presets.broken, presets.ignored], [[], []]);
  r = await cli(["--print-config", "--json"], t.vars);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(typeof JSON.parse(r.stdout).num_runs, "number");
});

Deno.test("with --json a failure is {error, code} on standard output with the same exit code", async () => {
  await using t = await tempEnv();
  const unreachable = ["--base-url", "http://127.0.0.1:9"];
  for (
    const [args, code, errorCode] of [
      [["--list-models", ...unreachable], 1, "unreachable"],
      [unreachable, 1, "unreachable"],
      [["--runs", "zero"], 2, "invalid_argument"],
      [["--no-such-option"], 2, "invalid_argument"],
    ] as const
  ) {
    const r = await cli([...args, "--json"], t.vars);
    assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
    const body = JSON.parse(r.stdout);
    assert.equal(body.code, errorCode, r.stdout);
    assert.equal(typeof body.error, "string");
    assertOneSentence(r.stderr, /./);
  }
});

Deno.test("cli.ts reads the user's defaults.json from LOCALBENCH_CONFIG_DIR", async () => {
  await using t = await tempEnv();
  await writeJson(join(t.configDir, "defaults.json"), { num_runs: 6 });
  const r = await runDeno([...BENCH, "--print-config"], { env: t.vars });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).num_runs, 6);
});

Deno.test("cli.ts --import stores another tool's results once; a malformed file is one line, exit 2, nothing stored", async () => {
  await using t = await tempEnv();
  const fixtures = join(REPO_ROOT, "tests/lib/bench/_fixtures/import");
  const broken = join(t.root, "broken.jsonl");
  await Deno.writeTextFile(broken, '{"model_filename": "m.gguf", "n_prompt": 0, "n_gen": 16}\n');
  let r = await cli(["--import", broken], t.vars);
  assert.equal(r.code, 2, r.stderr);
  assertOneSentence(r.stderr, /Cannot import .*broken\.jsonl: line 1: 'avg_ts' is missing/);
  r = await cli(["--list-cache"], t.vars);
  assert.match(r.stdout, /The cache is empty/);

  const file = join(fixtures, "llama_bench.jsonl");
  r = await cli(["--import", file], t.vars);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), `Imported 3 llama-bench result(s) from ${file}`);
  r = await cli(["--import", file, "--json"], t.vars);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    file,
    tool: "llama-bench",
    records: 3,
    added: 0,
    skipped: 3,
  });
  r = await cli(["--list-cache"], t.vars);
  assert.match(
    r.stdout,
    /tiny-a-Q8_0\s+q8_0\s+llama-bench\s+unknown machine\s+16 out · depth 512\s+250\.08/,
  );
  assert.match(r.stdout, /3 cached result\(s\)/);
});
