/**
 * Measurement fidelity against the real engine (llama.cpp's `llama-server`, router mode, the tiny
 * generated models): for each measured run, the tool's own figures beside the server's `timings`.
 *
 * - decode tokens/s: the tool's output tokens ÷ (total − TTFT) against `timings.predicted_per_second`
 * - time to first token: the tool's (first streamed token) against `timings.prompt_ms`
 * - overhead: the tool's wall time of the request minus the server's `prompt_ms + predicted_ms`
 *
 * Each run goes through the engine's own path (`measureOnce`: fresh nonce, `cache_prompt:false`),
 * after one warmup. Prints a table per model and the medians.
 *
 * Run: `deno run -A bench/measurement_fidelity.ts [--runs 10] [--max-tokens 64]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { measureOnce, randomNonce } from "../lib/bench/measure.ts";
import { type RunMetrics, runMetrics } from "../lib/bench/metrics.ts";
import { quantile } from "../lib/bench/stats.ts";
import { builtInDefaults } from "../lib/config/mod.ts";
import { explainMissingEngine, findEngine, startLlamaServer } from "../lib/engine/mod.ts";
import { print, printError } from "../lib/log.ts";
import { createBackend } from "../lib/modelserver/factory.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "10" },
    "max-tokens": { type: "string", default: "64" },
  },
});
const RUNS = Number(values.runs);
const MAX_TOKENS = Number(values["max-tokens"]);

/** Relative difference of the tool's value from the server's, in percent. */
const rel = (tool: number | null, server: number | null) =>
  tool === null || server === null || server === 0 ? null : (tool - server) / server * 100;

const median = (xs: (number | null)[]) =>
  quantile(xs.filter((x): x is number => x !== null).sort((a, b) => a - b), 0.5);

const f = (n: number | null, digits = 1, width = 9) =>
  (n === null ? "-" : n.toFixed(digits)).padStart(width);

function rowOf(i: number, m: RunMetrics): string[] {
  const serverTotal = m.server_prompt_ms !== null && m.server_predicted_ms !== null
    ? m.server_prompt_ms + m.server_predicted_ms
    : null;
  return [
    String(i + 1).padStart(3),
    f(m.tokens_per_sec),
    f(m.server_tokens_per_sec),
    f(rel(m.tokens_per_sec, m.server_tokens_per_sec), 1, 7),
    f(m.ttft_ms, 2),
    f(m.server_ttft_ms, 2),
    f(rel(m.ttft_ms, m.server_ttft_ms), 1, 7),
    f(serverTotal === null ? null : m.total_ms - serverTotal, 2),
  ];
}

const HEAD = [
  "run",
  "tok/s tool",
  "tok/s srv",
  "Δ%",
  "TTFT tool",
  "TTFT srv",
  "Δ%",
  "overhead",
];

async function main(): Promise<number> {
  const engine = findEngine();
  if (!engine) {
    printError(explainMissingEngine() ?? "the engine is not built");
    return 1;
  }
  await using server = await startLlamaServer({
    server: engine.server,
    modelsDir: engine.modelsDir,
    startupTimeoutMs: 30_000,
  });
  const backend = createBackend({ backend: "openai", base_url: server.url, timeout_ms: 60_000 });
  const config = builtInDefaults();
  config.inference.max_tokens = MAX_TOKENS;
  const all: RunMetrics[] = [];
  try {
    for (const model of engine.manifest.models.map((m) => m.name)) {
      const loaded = await backend.load(model, {
        context_length: config.context_length,
        ...config.load,
      });
      let id = loaded.instance_id;
      const ctx = {
        backend,
        config,
        signal: new AbortController().signal,
        nonce: randomNonce,
        reload: () => Promise.resolve(id),
      };
      id = (await measureOnce(ctx, id)).instanceId; // warmup
      const runs: RunMetrics[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(runMetrics((await measureOnce(ctx, id)).result));
      await backend.unload(id);
      all.push(...runs);
      print(`\n${model} (${RUNS} runs, up to ${MAX_TOKENS} tokens, ${server.url})`);
      print(
        ["run", ...HEAD.slice(1)].map((h, i) => h.padStart(i === 0 ? 3 : i % 3 ? 9 : 7)).join(" "),
      );
      runs.forEach((m, i) => print(rowOf(i, m).join(" ")));
    }
  } finally {
    await backend.close();
  }
  const overhead = all.map((m) =>
    m.server_prompt_ms !== null && m.server_predicted_ms !== null
      ? m.total_ms - m.server_prompt_ms - m.server_predicted_ms
      : null
  );
  print(`\nMedians over ${all.length} runs:`);
  print(
    `  decode tok/s: tool ${f(median(all.map((m) => m.tokens_per_sec)), 1, 0)} vs server ${
      f(median(all.map((m) => m.server_tokens_per_sec)), 1, 0)
    }; relative difference ${
      f(median(all.map((m) => rel(m.tokens_per_sec, m.server_tokens_per_sec))), 2, 0)
    } %`,
  );
  print(
    `  TTFT ms:      tool ${f(median(all.map((m) => m.ttft_ms)), 2, 0)} vs server prompt_ms ${
      f(median(all.map((m) => m.server_ttft_ms)), 2, 0)
    }; relative difference ${f(median(all.map((m) => rel(m.ttft_ms, m.server_ttft_ms))), 2, 0)} %`,
  );
  print(
    `  per-request overhead (tool wall time − server prompt+predicted): ${
      f(median(overhead), 2, 0)
    } ms (p95 ${
      f(quantile(overhead.filter((x): x is number => x !== null).sort((a, b) => a - b), 0.95), 2, 0)
    } ms)`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main());
