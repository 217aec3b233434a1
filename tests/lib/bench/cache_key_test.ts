import assert from "node:assert/strict";
import { identityHashes, measuredParams, paramsHash } from "../../../lib/bench/cache_key.ts";
import { builtInDefaults } from "../../../lib/config/mod.ts";

const run = { n_parallel: 4, unified_kv_cache: false };

Deno.test("the same parameters give the same 16-digit hash", () => {
  const a = paramsHash(measuredParams(builtInDefaults(), "rest", run));
  const b = paramsHash(measuredParams(builtInDefaults(), "rest", run));
  assert.equal(a, b);
  assert.match(a, /^[0-9a-f]{16}$/);
});

Deno.test("every measured parameter changes the hash", () => {
  const base = paramsHash(measuredParams(builtInDefaults(), "rest", run));
  const changes: ((c: ReturnType<typeof builtInDefaults>) => void)[] = [
    (c) => (c.prompt = "other"),
    (c) => (c.context_length = 4096),
    (c) => (c.inference.temperature = 0.2),
    (c) => (c.inference.max_tokens = 128),
    (c) => (c.load.n_batch = 256),
    (c) => (c.load.flash_attention = false),
    (c) => (c.load.n_gpu_layers = 0),
  ];
  const seen = new Set([base]);
  for (const change of changes) {
    const c = builtInDefaults();
    change(c);
    const h = paramsHash(measuredParams(c, "rest", run));
    assert.ok(!seen.has(h), `a change gives a new hash: ${change}`);
    seen.add(h);
  }
  assert.notEqual(paramsHash(measuredParams(builtInDefaults(), "openai", run)), base);
  assert.notEqual(
    paramsHash(measuredParams(builtInDefaults(), "rest", { ...run, n_parallel: 2 })),
    base,
  );
});

Deno.test("the hash does not depend on the order of keys", () => {
  const p = measuredParams(builtInDefaults(), "rest", run);
  const reversed = Object.fromEntries(Object.entries(p).reverse()) as typeof p;
  reversed.inference = Object.fromEntries(
    Object.entries(p.inference).reverse(),
  ) as typeof p.inference;
  assert.equal(paramsHash(reversed), paramsHash(p));
});

Deno.test("the SDK backend has no parallel rounds, so --n-parallel does not change its hash", () => {
  const a = paramsHash(measuredParams(builtInDefaults(), "sdk", run));
  const b = paramsHash(
    measuredParams(builtInDefaults(), "sdk", { n_parallel: 1, unified_kv_cache: true }),
  );
  assert.equal(a, b);
});

Deno.test("a load value the backend cannot set does not change its hash", () => {
  const changed = builtInDefaults();
  changed.load.kv_cache_quant = "q8_0";
  changed.load.use_mlock = true;
  for (const kind of ["rest", "openai"] as const) {
    assert.equal(
      paramsHash(measuredParams(changed, kind, run)),
      paramsHash(measuredParams(builtInDefaults(), kind, run)),
      kind,
    );
  }
  assert.notEqual(
    paramsHash(measuredParams(changed, "sdk", run)),
    paramsHash(measuredParams(builtInDefaults(), "sdk", run)),
    "the SDK sets both",
  );
  const context = builtInDefaults();
  context.context_length = 100_000;
  assert.equal(
    paramsHash(measuredParams(context, "openai", run)),
    paramsHash(measuredParams(builtInDefaults(), "openai", run)),
    "llama-server takes its context on its own command line",
  );
});

Deno.test("--unified-kv-cache, which no backend can set, never changes the hash", () => {
  for (const kind of ["sdk", "rest", "openai"] as const) {
    assert.equal(
      paramsHash(measuredParams(builtInDefaults(), kind, { ...run, unified_kv_cache: true })),
      paramsHash(measuredParams(builtInDefaults(), kind, run)),
    );
  }
});

Deno.test("the hash of a run without a workload is the one earlier versions stored", () => {
  // SDK mode (the default) keeps its cache across this change: the same key as before.
  assert.equal(paramsHash(measuredParams(builtInDefaults(), "sdk", run)), "5723d6877ab9118b");
});

Deno.test("a controlled workload and a load curve change the hash", () => {
  const base = paramsHash(measuredParams(builtInDefaults(), "rest", run));
  const w = {
    prompt_tokens: [128],
    gen_tokens: [],
    concurrency: [],
    request_rate: [],
    requests: 16,
    seed: 42,
    slo_ttft_ms: null,
    slo_tpot_ms: null,
  };
  const a = paramsHash(measuredParams(builtInDefaults(), "rest", { ...run, workload: w }));
  const b = paramsHash(
    measuredParams(builtInDefaults(), "rest", { ...run, workload: { ...w, concurrency: [1, 2] } }),
  );
  assert.equal(new Set([base, a, b]).size, 3);
});

Deno.test("each new workload dimension changes the hash, and its default keeps the old one", () => {
  const w = {
    prompt_tokens: [128],
    gen_tokens: [32],
    concurrency: [],
    request_rate: [2],
    requests: 16,
    seed: 42,
    slo_ttft_ms: null,
    slo_tpot_ms: null,
  };
  const hash = (workload: Record<string, unknown>, sha: string | null = null) =>
    paramsHash(
      measuredParams(builtInDefaults(), "openai", {
        ...run,
        workload: { ...w, ...workload },
        dataset_sha256: sha,
      }),
    );
  const base = hash({});
  // The defaults of the new options are the workload as it was keyed before them.
  assert.equal(
    hash({
      prompt_tokens_stddev: 0,
      gen_tokens_stddev: 0,
      range_ratio: 0,
      burstiness: 1,
      duration_s: null,
      warmup_requests: 1,
      slo_e2el_ms: null,
      dataset: null,
    }),
    base,
  );
  const variants = [
    hash({ prompt_tokens_stddev: 10 }),
    hash({ gen_tokens_stddev: 4 }),
    hash({ range_ratio: 0.5 }),
    hash({ range_ratio: 0.5, seed: 7 }),
    hash({ burstiness: 0.5 }),
    hash({ duration_s: 30 }),
    hash({ warmup_requests: 4 }),
    hash({ slo_e2el_ms: 500 }),
    hash({ prompt_tokens: [], gen_tokens: [], dataset: "d.json" }, "aaaa"),
    hash({ prompt_tokens: [], gen_tokens: [], dataset: "d.json" }, "bbbb"),
    hash({ prompt_tokens: [], gen_tokens: [], dataset: "e.json" }, "aaaa"),
    hash({ prompt_tokens: [], gen_tokens: [], dataset: "d.json", dataset_sample: 10 }, "aaaa"),
    hash({ prompt_tokens: [], gen_tokens: [], dataset: "d.json", seed: 1 }, "aaaa"),
  ];
  assert.equal(new Set([base, ...variants]).size, variants.length + 1);
});

Deno.test("--kv-depth makes one identity per depth, and depth 0 is the identity without it", () => {
  const w = {
    prompt_tokens: [64],
    gen_tokens: [16],
    concurrency: [],
    request_rate: [],
    requests: 16,
    seed: 42,
    slo_ttft_ms: null,
    slo_tpot_ms: null,
  };
  const params = (kv_depth?: number[]) =>
    measuredParams(builtInDefaults(), "openai", {
      ...run,
      n_parallel: 1, // the grid's other cells have no parallel rounds
      workload: { ...w, kv_depth },
    });
  const plain = paramsHash(params());
  assert.equal(paramsHash(params([0])), plain, "--kv-depth 0 measures what a run without it does");
  assert.notEqual(paramsHash(params([4096])), plain);
  const cells = identityHashes(params([0, 4096, 16384]));
  assert.equal(cells.length, 3, "one identity per depth");
  assert.equal(cells[0], plain, "the depth-0 cell is the run without --kv-depth");
  assert.equal(cells[1], paramsHash(params([4096])), "a cell is the hash of that depth alone");
  assert.equal(new Set(cells).size, 3);
});

Deno.test("--shared-prefix-tokens is part of the identity, 0 the identity without it", () => {
  const hash = (shared_prefix_tokens?: number) =>
    paramsHash(
      measuredParams(builtInDefaults(), "openai", {
        ...run,
        workload: {
          prompt_tokens: [],
          gen_tokens: [],
          concurrency: [],
          request_rate: [],
          requests: 16,
          seed: 42,
          slo_ttft_ms: null,
          slo_tpot_ms: null,
          shared_prefix_tokens,
        },
      }),
    );
  assert.equal(hash(0), hash());
  assert.equal(hash(0), paramsHash(measuredParams(builtInDefaults(), "openai", run)));
  assert.notEqual(hash(512), hash());
  assert.notEqual(hash(512), hash(1024));
});
