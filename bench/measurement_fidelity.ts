/**
 * Measurement fidelity and client overhead against the real engine (llama.cpp's `llama-server`,
 * router mode, the two generated models), with a 20-line Python client as the peer.
 *
 * Method
 * - Per model: load, one unmeasured warm-up request of each client, then `--runs` rounds; each
 *   round sends one request through localbench's own path (`measureOnce` on the OpenAI-compatible
 *   backend: fresh nonce, `cache_prompt: false`, the configured sampling, `--max-tokens`) and then
 *   the same request from the Python client (bench/_python_client.ts: `http.client`, keep-alive,
 *   every `data:` line parsed), interleaved.
 * - Fidelity, per localbench run: decode tokens/s against the server's
 *   `timings.predicted_per_second`, and time to first token against `timings.prompt_ms`; printed:
 *   the median of |Δ| (not the signed median), the largest |Δ| and the runs off by more than 5%.
 *   Goal: no run beyond 5%, median |Δ| ≤ 1%.
 * - Client overhead, per request of each client: its wall time minus the server's
 *   `prompt_ms + predicted_ms` (what the server did not spend computing); printed: median and min
 *   of each client and the ratio of the medians. Goal: ≤ 1.1× the Python client.
 *
 * Needs the engine (`deno task engine:setup`) and `python3`.
 *
 * Run: `deno run -A bench/measurement_fidelity.ts [--runs 25] [--max-tokens 256]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  loadForMeasuring,
  measureOnce,
  promptWithNonce,
  randomNonce,
  samplingOf,
} from "../lib/bench/measure.ts";
import { type RunMetrics, runMetrics } from "../lib/bench/metrics.ts";
import { builtInDefaults } from "../lib/config/mod.ts";
import { explainMissingEngine, findEngine, startLlamaServer } from "../lib/engine/mod.ts";
import { print, printError } from "../lib/log.ts";
import { createBackend } from "../lib/modelserver/factory.ts";
import { medianOf, minOf } from "./_measure.ts";
import { type PythonRun, startPythonClient } from "./_python_client.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "25" },
    "max-tokens": { type: "string", default: "256" },
  },
});
const RUNS = Math.max(5, Number(values.runs));
const MAX_TOKENS = Number(values["max-tokens"]);

/** Relative difference of the tool's value from the server's, in percent. */
const rel = (tool: number | null, server: number | null) =>
  tool === null || server === null || server === 0 ? null : (tool - server) / server * 100;

const nums = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
const f = (n: number | null, digits = 1, width = 9) =>
  (n === null || !Number.isFinite(n) ? "-" : n.toFixed(digits)).padStart(width);

interface Round {
  model: string;
  tool: RunMetrics;
  /** The tool's time of its last token event. */
  toolLast: number | null;
  toolOverhead: number | null;
  py: PythonRun;
  pyOverhead: number | null;
}

const serverMs = (prompt?: number | null, predicted?: number | null) =>
  typeof prompt === "number" && typeof predicted === "number" ? prompt + predicted : null;

function printRounds(model: string, rounds: Round[]): void {
  print(`\n${model} (${rounds.length} rounds, up to ${MAX_TOKENS} tokens)`);
  print(
    "run  tok/s tool  tok/s srv      Δ%   TTFT tool   TTFT srv      Δ%  overhead  py overhead",
  );
  rounds.forEach((r, i) => {
    const m = r.tool;
    print([
      String(i + 1).padStart(3),
      f(m.tokens_per_sec, 1, 11),
      f(m.server_tokens_per_sec, 1, 10),
      f(rel(m.tokens_per_sec, m.server_tokens_per_sec), 2, 7),
      f(m.ttft_ms, 2, 11),
      f(m.server_ttft_ms, 2, 10),
      f(rel(m.ttft_ms, m.server_ttft_ms), 1, 7),
      f(r.toolOverhead, 2, 9),
      f(r.pyOverhead, 2, 12),
    ].join(" "));
  });
}

function summary(all: Round[]): void {
  const decode = nums(all.map((r) => rel(r.tool.tokens_per_sec, r.tool.server_tokens_per_sec)))
    .map(Math.abs);
  const ttft = nums(all.map((r) => rel(r.tool.ttft_ms, r.tool.server_ttft_ms))).map(Math.abs);
  const tool = nums(all.map((r) => r.toolOverhead));
  const py = nums(all.map((r) => r.pyOverhead));
  print(`\nOver ${all.length} runs:`);
  print(
    `  decode tok/s vs server timings: median |Δ| ${f(medianOf(decode), 2, 0)} %, ` +
      `max |Δ| ${f(Math.max(...decode), 2, 0)} %, runs beyond 5%: ${
        decode.filter((d) => d > 5).length
      }`,
  );
  print(
    `  TTFT vs server prompt_ms: median |Δ| ${f(medianOf(ttft), 1, 0)} % ` +
      `(the client's TTFT also holds the request and the first token's sampling and send)`,
  );
  // Where the overhead is: before the first token (request, server-side set-up, first read) and
  // after the last one (closing chunks, end of the body).
  const head = (ttft: number | null, prompt?: number | null) =>
    ttft === null || typeof prompt !== "number" ? null : ttft - prompt;
  const tail = (
    total: number,
    last?: number | null,
  ) => (typeof last === "number" ? total - last : null);
  print(
    `  before the first token (TTFT − prompt_ms): localbench median ${
      f(medianOf(nums(all.map((r) => head(r.tool.ttft_ms, r.tool.server_prompt_ms)))), 2, 0)
    } ms, Python ${
      f(medianOf(nums(all.map((r) => head(r.py.ttft_ms, r.py.timings.prompt_ms)))), 2, 0)
    } ms; after the last token: localbench ${
      f(medianOf(nums(all.map((r) => tail(r.tool.total_ms, r.toolLast)))), 2, 0)
    } ms, Python ${f(medianOf(nums(all.map((r) => tail(r.py.wall_ms, r.py.last_ms)))), 2, 0)} ms`,
  );
  print(
    `  client overhead per request (wall − prompt_ms − predicted_ms): localbench median ` +
      `${f(medianOf(tool), 2, 0)} ms (min ${f(minOf(tool), 2, 0)}), Python client median ` +
      `${f(medianOf(py), 2, 0)} ms (min ${f(minOf(py), 2, 0)}); ratio ` +
      `${(medianOf(tool) / medianOf(py)).toFixed(2)}×`,
  );
}

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
  const python = startPythonClient(server.url);
  const config = builtInDefaults();
  config.inference.max_tokens = MAX_TOKENS;
  const pyBody = (model: string) => ({
    model,
    messages: [{ role: "user", content: promptWithNonce(config.prompt, randomNonce()) }],
    ...samplingOf(config),
    stream: true,
    stream_options: { include_usage: true },
    cache_prompt: false,
  });
  const all: Round[] = [];
  try {
    for (const model of engine.manifest.models.map((m) => m.name)) {
      const { id, ctx } = await loadForMeasuring(backend, config, model);
      await measureOnce(ctx, id); // warm-ups
      await python.run(pyBody(id));
      const rounds: Round[] = [];
      for (let i = 0; i < RUNS; i++) {
        const { result } = await measureOnce(ctx, id);
        const tool = runMetrics(result);
        const py = await python.run(pyBody(id));
        const pyServer = serverMs(py.timings.prompt_ms, py.timings.predicted_ms);
        const toolServer = serverMs(tool.server_prompt_ms, tool.server_predicted_ms);
        rounds.push({
          model,
          tool,
          toolLast: result.client.last_token_ms ?? null,
          toolOverhead: toolServer === null ? null : tool.total_ms - toolServer,
          py,
          pyOverhead: pyServer === null ? null : py.wall_ms - pyServer,
        });
      }
      await backend.unload(id);
      printRounds(model, rounds);
      all.push(...rounds);
    }
  } finally {
    await python.close();
    await backend.close();
  }
  summary(all);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
