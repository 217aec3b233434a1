/**
 * Black-box tests of the benchmark command line: `cli.ts` with the permissions of `deno task bench`
 * (never `-A`: what Deno refuses there must be seen here) against the LM Studio double with
 * temporary data and config folders; the printed table and the exit codes.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ResultsStore } from "../../lib/store/mod.ts";
import { programPermissions, REPO_ROOT, runDeno, tempEnv, waitFor } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";

const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];

async function cli(args: string[], vars: Record<string, string>) {
  return await runDeno([...BENCH, ...args], { env: vars });
}

Deno.test("a REST benchmark prints the results table and exits 0", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli(
      [
        "--backend",
        "rest",
        "--base-url",
        d.url,
        "--runs",
        "2",
        "--n-parallel",
        "1",
        "--include-models",
        "qwen3-4b@q4",
      ],
      env.vars,
    );
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split("\n");
    assert.match(lines[0]!, /^Model\s+Quant\s+tok\/s\s+±95%\s+TTFT ms/);
    const row = lines.find((l) => l.startsWith("qwen/qwen3-4b "))!;
    assert.match(row, /^qwen\/qwen3-4b\s+q4_k_m\s+\d+\.\d\d\s+\d+\.\d\d\s+.*\s2$/);
    assert.match(r.stderr, /Benchmarking 1 model\(s\) × 2 run\(s\)/);
    assert.match(r.stderr, /Done in \d+s: 1 measured, 0 failed/);
  } finally {
    await d.close();
  }
});

Deno.test("parallel rounds are printed beside the sequential results", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli(
      ["--backend", "rest", "--base-url", d.url, "--runs", "2", "--n-parallel", "3"].concat(
        ["--include-models", "qwen3-4b@q4"],
      ),
      env.vars,
    );
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split("\n");
    const head = lines.findIndex((l) => /^Parallel\s+Quant\s+streams\s+total tok\/s/.test(l));
    assert.ok(head > 0, r.stdout);
    assert.match(
      lines[head + 2]!,
      /^qwen\/qwen3-4b\s+q4_k_m\s+3\s+\d+\.\d\s+\d+\.\d\d×\s+\d+\s+\d+$/,
    );
    // The report files hold them too.
    const results = join(env.vars.LOCALBENCH_DATA_DIR!, "results");
    const html = [...Deno.readDirSync(results)].find((f) => f.name.endsWith(".html"))!;
    const text = Deno.readTextFileSync(join(results, html.name));
    assert.match(text, /<section id="parallel">/);
  } finally {
    await d.close();
  }
});

Deno.test("--dev-mode measures only the smallest model, once", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli(["--backend", "rest", "--base-url", d.url, "--dev-mode"], env.vars);
    assert.equal(r.code, 0, r.stderr);
    const loads = d.state.requests.filter((q) => q.path === "/api/v1/models/load");
    assert.deepEqual(loads.map((q) => (q.body as { model: string }).model), [
      "mistralai/ministral-3-3b",
    ]);
    const chats = d.state.requests.filter((q) =>
      q.path === "/api/v1/chat" || q.path === "/v1/chat/completions"
    );
    assert.ok(chats.length >= 2, "a warmup and the one measured run");
    assert.match(r.stdout, /^mistralai\/ministral-3-3b\s.*\s1$/m);
    assert.match(r.stderr, /× 1 run\(s\)/);
  } finally {
    await d.close();
  }
});

Deno.test("--enable-profiling stores CPU and RAM figures (and null GPU figures without a GPU)", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 5 });
  try {
    const r = await cli(
      [
        "--backend",
        "rest",
        "--base-url",
        d.url,
        "--dev-mode",
        "--enable-profiling",
        "--max-tokens",
        "32",
      ],
      env.vars,
    );
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await d.close();
  }
  const store = ResultsStore.open(join(env.dataDir, "results.db"));
  try {
    const row = store.allResults()[0]!;
    assert.equal(typeof row.ram_gb_mean, "number");
    assert.equal(typeof row.cpu_percent_max, "number");
    assert.doesNotMatch(String(row.warnings_json), /cannot be read/, "no sensor is unreadable");
    if (row.gpu_type === null) {
      assert.equal(row.temp_c_mean, null);
      assert.equal(row.vram_mb, null);
    }
  } finally {
    store.close();
  }
});

Deno.test("the exit code is 1 when every model fails", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    for (const m of d.state.installed()) d.faults.failLoad.add(m.key);
    const r = await cli(
      ["--backend", "rest", "--base-url", d.url, "--runs", "1", "--n-parallel", "1"],
      env.vars,
    );
    assert.equal(r.code, 1);
    assert.match(r.stderr, /localbench: error: every model failed/);
  } finally {
    await d.close();
  }
});

Deno.test("the exit code is 2 for a bad argument", async () => {
  await using env = await tempEnv();
  const r = await cli(["--runs", "many"], env.vars);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /localbench: error: .*--runs.*\(see --help\)/);
});

Deno.test("nothing listening exits 1 with the 'Cannot reach' message", async () => {
  await using env = await tempEnv();
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const r = await cli(
    ["--backend", "rest", "--base-url", `http://127.0.0.1:${port}`, "--runs", "1"],
    env.vars,
  );
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`Cannot reach LM Studio at http://127\\.0\\.0\\.1:${port}`));
});

Deno.test("a benchmark killed mid-run is marked interrupted by the next command, with its runs kept", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 40 });
  const db = join(env.dataDir, "results.db");
  const args = [
    ...["--backend", "rest", "--base-url", d.url, "--include-models", "qwen3-4b@q4"],
    ...["--runs", "50", "--n-parallel", "1"],
  ];
  const child = new Deno.Command(Deno.execPath(), {
    args: [...BENCH, ...args],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", ...env.vars },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await waitFor(
      () => {
        if (!existsSync(`${db}-wal`)) return false; // the benchmark has not created its store yet
        const store = ResultsStore.open(db);
        try {
          const r = store.allResults()[0];
          return r !== undefined && store.runsOf(r.id).length >= 1;
        } finally {
          store.close();
        }
      },
      "a stored run",
      60_000,
    );
    child.kill("SIGKILL");
    await child.status;
    const r = await cli(["--list-cache"], env.vars);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await d.close();
  }
  // Read as stored by that command (opening a ResultsStore here would mark it itself).
  const raw = new DatabaseSync(db, { readOnly: true });
  try {
    const row = raw.prepare("SELECT id, status, error FROM results").get() as Record<
      string,
      unknown
    >;
    assert.equal(row.status, "failed");
    assert.match(String(row.error), /^Interrupted/);
    const runs = raw.prepare("SELECT count(*) AS n FROM runs WHERE result_id = ?").get(
      row.id as number,
    );
    assert.ok((runs as { n: number }).n >= 1, "the runs it completed are kept");
  } finally {
    raw.close();
  }
});

Deno.test("--save-requests writes every request as a JSON line with its times, so what was in flight can be rebuilt", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 5 });
  try {
    const r = await cli([
      ...["--backend", "rest", "--base-url", d.url, "--include-models", "qwen3-4b@q4"],
      ...["--runs", "2", "--n-parallel", "1", "--concurrency", "2", "--requests", "4"],
      ...["--save-requests", "requests.jsonl"],
    ], env.vars);
    assert.equal(r.code, 0, r.stderr);
    const path = join(env.dataDir, "results", "requests.jsonl");
    assert.match(r.stderr, new RegExp(`Saved 6 request\\(s\\) to ${path}`));
    const lines = (await Deno.readTextFile(path)).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.phase), [
      "sequential",
      "sequential",
      "load",
      "load",
      "load",
      "load",
    ]);
    for (const l of lines) {
      assert.equal(l.status, "ok");
      assert.ok(l.start_ms < l.end_ms && l.ttft_ms > 0 && l.tokens_out > 0, JSON.stringify(l));
      assert.equal(l.itl_ms.length, l.tokens_out - 1, "one gap between each two tokens");
      assert.equal(l.started_at, new Date(l.start_ms).toISOString());
    }
    const load = lines.filter((l) => l.phase === "load");
    const inFlight = Math.max(
      ...load.map((a) =>
        load.filter((b) => b.start_ms <= a.start_ms && a.start_ms < b.end_ms).length
      ),
    );
    assert.equal(inFlight, 2, "concurrency 2: two requests overlap, never three");
  } finally {
    await d.close();
  }
});

Deno.test("with --json a run whose reports fail still prints one JSON document, and exits 1", async () => {
  await using env = await tempEnv();
  // The results folder is a file: the reports cannot be written, the results are stored.
  await Deno.mkdir(env.dataDir, { recursive: true });
  await Deno.writeTextFile(join(env.dataDir, "results"), "");
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli(
      ["--backend", "rest", "--base-url", d.url, "--dev-mode", "--json"],
      env.vars,
    );
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout); // one document: the results, not also an error object
    assert.equal(Array.isArray(doc.results), true, r.stdout.slice(0, 300));
    assert.match(r.stderr, /A report could not be written/);
  } finally {
    await d.close();
  }
});
