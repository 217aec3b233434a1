import assert from "node:assert/strict";
import { cellParams, paramsHash, workloadText } from "../../../lib/store/identity.ts";

const params = {
  backend: "openai",
  load: { n_batch: 512 },
  prompt: "p",
  n_parallel: 2,
  workload: {
    prompt_tokens: [64, 256],
    gen_tokens: [16],
    concurrency: [1, 4],
    request_rate: [],
    requests: 8,
    seed: 1,
    burstiness: 0.5,
  },
};

Deno.test("cellParams() gives a grid cell its lengths alone, the first keeping the load curve", () => {
  const first = cellParams(params, { prompt_tokens: 64, gen_tokens: 16 }, true);
  assert.deepEqual(first.workload, { ...params.workload, prompt_tokens: [64], gen_tokens: [16] });
  assert.equal(first.n_parallel, 2);
  const other = cellParams(params, { prompt_tokens: 256, gen_tokens: 16 }, false);
  assert.deepEqual(other.workload, { prompt_tokens: [256], gen_tokens: [16], seed: 1 });
  assert.equal(other.n_parallel, 1);
  assert.notEqual(paramsHash(first), paramsHash(other));
});

Deno.test("a value the backend cannot set leaves the identity as it is", () => {
  const other = { ...params, load: { n_batch: 1024 } };
  assert.equal(paramsHash(params), paramsHash(other), "openai sets no load value");
  const rest = (n: number) => ({ ...params, backend: "rest", load: { n_batch: n } });
  assert.notEqual(paramsHash(rest(512)), paramsHash(rest(1024)), "REST sends n_batch");
});

Deno.test("workloadText() names every dimension of a workload, null for the configured prompt", () => {
  assert.equal(workloadText(JSON.stringify({ backend: "rest" })), null);
  assert.equal(workloadText("not json"), null);
  assert.equal(
    workloadText(JSON.stringify({
      workload: {
        dataset: { path: "/x/data/sharegpt_small.json", sha256: "a", sample: 50 },
        prompt_tokens: [64],
        prompt_tokens_stddev: 8,
        request_rate: [2],
        burstiness: 0.5,
        duration_s: 30,
      },
    })),
    "dataset sharegpt_small.json (50) · prompt 64 ±8 tokens · 2 req/s · burstiness 0.5 · 30 s",
  );
});
