/**
 * The client's decode speed against llama-server's own `timings`, on the real engine: measured
 * runs through the benchmark's own path (`measureOnce`, the OpenAI-compatible backend, 256
 * tokens). The 5% / 1% goals are shown by perf/measurement_fidelity.ts on a quiet machine; this
 * test allows for a loaded one and still catches a decode speed computed over the wrong span
 * (the empty-delta bug made it ten times the server's).
 */
import assert from "node:assert/strict";
import { loadForMeasuring, measureOnce } from "../../lib/bench/measure.ts";
import { runMetrics } from "../../lib/bench/metrics.ts";
import { builtInDefaults } from "../../lib/config/mod.ts";
import { explainMissingEngine, findEngine, startLlamaServer } from "../../lib/engine/mod.ts";
import { createBackend } from "../../lib/modelserver/factory.ts";

const engine = findEngine();
const why = engine ? "" : ` (ignored: ${explainMissingEngine()})`;

Deno.test({
  name: `decode speed stays within a few percent of llama-server's timings on every run${why}`,
  ignore: !engine,
  async fn() {
    await using server = await startLlamaServer({ startupTimeoutMs: 30_000 });
    const backend = createBackend({ backend: "openai", base_url: server.url, timeout_ms: 60_000 });
    const config = builtInDefaults();
    config.inference.max_tokens = 256;
    const deltas: number[] = [];
    try {
      for (const model of engine!.manifest.models.map((m) => m.name)) {
        const { id, ctx } = await loadForMeasuring(backend, config, model);
        await measureOnce(ctx, id); // warm-up
        for (let i = 0; i < 6; i++) {
          const m = runMetrics((await measureOnce(ctx, id)).result);
          assert.ok(m.tokens_out! >= 2 && m.server_tokens_per_sec! > 0, JSON.stringify(m));
          assert.ok(m.ttft_ms! > 0 && m.ttft_ms! < m.total_ms);
          deltas.push(
            Math.abs(m.tokens_per_sec! - m.server_tokens_per_sec!) /
              m.server_tokens_per_sec! * 100,
          );
        }
        await backend.unload(id);
      }
    } finally {
      await backend.close();
    }
    const sorted = [...deltas].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    assert.ok(
      median <= 2,
      `median |Δ| ${median.toFixed(2)} % (${sorted.map((d) => d.toFixed(1))})`,
    );
    assert.ok(sorted.at(-1)! <= 15, `largest |Δ| ${sorted.at(-1)!.toFixed(2)} %`);
  },
});
