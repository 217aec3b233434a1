/**
 * Production-like workloads through `cli.ts` (the permissions of `deno task bench`) against the LM
 * Studio double: a dataset's prompts and output targets, whether each request stopped early,
 * warm-up requests that are never stored, a timed load level, and a malformed dataset refused in
 * one line naming its line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ResultsStore } from "../../lib/store/mod.ts";
import { programPermissions, REPO_ROOT, runDeno, tempEnv } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";

const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];
const REST = ["--backend", "rest", "--n-parallel", "1", "--include-models", "qwen3-4b@q4"];

function cli(args: string[], vars: Record<string, string>) {
  return runDeno([...BENCH, ...args], { env: vars });
}

function storedRuns(dataDir: string) {
  const store = ResultsStore.open(join(dataDir, "results.db"));
  try {
    return store.allResults().flatMap((r) => store.runsOf(r.id));
  } finally {
    store.close();
  }
}

/** The user messages of the REST chats the double received, in order. */
function chatInputs(requests: { path: string; body: unknown }[]): string[] {
  return requests.filter((r) => r.path === "/api/v1/chat").map((r) => {
    const input = (r.body as { input: unknown }).input;
    return typeof input === "string" ? input : JSON.stringify(input);
  });
}

Deno.test("--dataset sends the dataset's prompts with their output targets and records which stopped early", async () => {
  await using env = await tempEnv();
  const file = join(env.root, "requests.jsonl");
  // The double's answers end on their own after 24 to 223 tokens: 400 is never reached, 4 always.
  await Deno.writeTextFile(
    file,
    [
      { prompt: "alpha question about trees", output_tokens: 400 },
      { prompt: "beta question about rivers", output_tokens: 4 },
      { prompt: "gamma question about stars", output_tokens: 400 },
    ].map((x) => JSON.stringify(x)).join("\n") + "\n",
  );
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli([
      ...REST,
      ...["--base-url", d.url, "--runs", "4", "--warmup-requests", "1"],
      ...["--dataset", file, "--save-requests", "req.jsonl"],
    ], env.vars);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /the dataset's output length is a maximum/);
    const inputs = chatInputs(d.state.requests);
    // The warm-up (the configured prompt), then the dataset's requests in order, wrapping.
    assert.equal(inputs.length, 5);
    const measured = inputs.slice(1);
    for (const [i, word] of ["alpha", "beta", "gamma", "alpha"].entries()) {
      assert.match(measured[i]!, new RegExp(`^\\[[0-9a-f]{8}\\] ${word} question`));
    }
    const bodies = d.state.requests.filter((x) => x.path === "/api/v1/chat").slice(1);
    assert.deepEqual(
      bodies.map((b) => (b.body as { max_output_tokens: number }).max_output_tokens),
      [400, 4, 400, 400],
    );
    const runs = storedRuns(env.dataDir);
    assert.deepEqual(runs.map((x) => x.gen_tokens_target), [400, 4, 400, 400]);
    assert.deepEqual(runs.map((x) => x.stopped_early), [1, 0, 1, 1]);
    const lines = (await Deno.readTextFile(join(env.dataDir, "results", "req.jsonl"))).trimEnd()
      .split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.output_tokens_target, l.stopped_early]), [
      [400, true],
      [4, false],
      [400, true],
      [400, true],
    ]);
  } finally {
    await d.close();
  }
});

Deno.test("--dataset-sample picks the same requests for the same seed from the shipped dataset", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  const dataset = join(REPO_ROOT, "data", "sharegpt_small.json");
  try {
    const sent: string[][] = [];
    for (const _ of [1, 2]) {
      const before = chatInputs(d.state.requests).length;
      const r = await cli([
        ...REST,
        ...["--base-url", d.url, "--runs", "3", "--retest", "--warmup-requests", "0"],
        ...["--dataset", dataset, "--dataset-sample", "3", "--seed", "7"],
      ], env.vars);
      assert.equal(r.code, 0, r.stderr);
      sent.push(chatInputs(d.state.requests).slice(before).map((s) => s.slice(11)));
    }
    assert.equal(sent[0]!.length, 3, "no warm-up with --warmup-requests 0");
    assert.deepEqual(sent[1], sent[0]);
    const all = JSON.parse(await Deno.readTextFile(dataset)) as {
      conversations: { value: string }[];
    }[];
    const prompts = new Set(all.map((c) => c.conversations[0]!.value));
    for (const s of sent[0]!) assert.ok(prompts.has(s), `a prompt of the dataset: ${s}`);
  } finally {
    await d.close();
  }
});

Deno.test("--warmup-requests sends its requests before measuring and stores none of them", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli([
      ...REST,
      ...["--base-url", d.url, "--runs", "2", "--warmup-requests", "4"],
      ...["--prompt-tokens", "60", "--gen-tokens", "8"],
    ], env.vars);
    assert.equal(r.code, 0, r.stderr);
    const chats = d.state.requests.filter((x) => x.path === "/api/v1/chat")
      .map((x) => (x.body as { max_output_tokens: number }).max_output_tokens);
    // Calibration probes ask for one token; the warm-ups after the first follow the workload.
    const workload = chats.filter((n) => n === 8);
    assert.equal(workload.length, 3 + 2, "three shaped warm-ups and two measured runs");
    assert.equal(storedRuns(env.dataDir).length, 2, "only the measured runs are stored");
  } finally {
    await d.close();
  }
});

Deno.test("--duration ends a load level at its deadline: no request is sent after it", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 2 });
  try {
    const r = await cli([
      ...REST,
      ...["--base-url", d.url, "--runs", "1", "--max-tokens", "8"],
      ...["--concurrency", "2", "--duration", "0.6", "--requests", "2"],
    ], env.vars);
    assert.equal(r.code, 0, r.stderr);
    const load = storedRuns(env.dataDir).filter((x) => x.load_mode === "concurrency");
    assert.ok(
      load.length > 2,
      `more than --requests: the duration bounds the level (${load.length})`,
    );
    const starts = load.map((x) => x.started_at_ms as number);
    const first = Math.min(...starts);
    for (const s of starts) assert.ok(s - first < 600, `sent ${s - first} ms after the first`);
  } finally {
    await d.close();
  }
});

Deno.test("a malformed dataset is refused in one line naming the line, before any server is asked", async () => {
  await using env = await tempEnv();
  const file = join(env.root, "bad.jsonl");
  await Deno.writeTextFile(file, '{"prompt": "ok", "output_tokens": 3}\n{"prompt": "broken",\n');
  const r = await cli(
    ["--backend", "openai", "--base-url", "http://127.0.0.1:9", "--dataset", file],
    env.vars,
  );
  assert.equal(r.code, 2, r.stderr);
  const errors = r.stderr.split("\n").filter((l) => l.startsWith("localbench:"));
  assert.equal(errors.length, 1, r.stderr);
  assert.match(
    errors[0]!,
    /^localbench: error: Cannot read the dataset .*bad\.jsonl: line 2: not JSON \(.* at column 21\)/,
  );
  assert.doesNotMatch(r.stderr, /^\s+at /m, "no stack trace");
  const mixed = await cli(["--dataset", file, "--prompt-tokens", "64"], env.vars);
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /--dataset sets the prompts and output lengths/);
});

Deno.test("--percentiles chooses the percentiles of the latency and load-curve tables", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli([
      ...REST,
      ...["--base-url", d.url, "--runs", "3", "--concurrency", "2", "--requests", "4"],
      ...["--percentiles", "50,95,99.9"],
    ], env.vars);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Latency \(ms\)\s+Quant\s+TTFT mean\s+TTFT p50\s+TTFT p95\s+TTFT p99\.9\s/m,
    );
    assert.match(r.stdout, /E2EL p99\.9$/m);
    assert.match(
      r.stdout,
      /^Load curve\s+level\s+ok\s+.*latency p50\s+latency p95\s+latency p99\.9\s/m,
    );
    assert.match(r.stdout, /^qwen\/qwen3-4b@q4_k_m\s+c=2\s+4\/4\s+[\d.]+/m);
    const bad = await cli(["--percentiles", "50,100"], env.vars);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--percentiles takes values below 100 \(given: 100\)/);
  } finally {
    await d.close();
  }
});
