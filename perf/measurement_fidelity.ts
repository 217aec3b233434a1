/**
 * Measurement fidelity and client overhead against the real engine (llama.cpp's `llama-server`,
 * router mode, the two generated models) and against a replay server (no model behind it), with
 * a 20-line Python client as the peer.
 *
 * Method
 * - Per model: load, one unmeasured warm-up request of each client, then `--runs` rounds; each
 *   round sends one request through localbench's own path (`measureOnce` on the OpenAI-compatible
 *   backend: fresh nonce, `cache_prompt: false`, the configured sampling, `--max-tokens`), the
 *   same through a backend over Deno's `fetch` (what lib/modelserver/http1/ replaced, shown for
 *   comparison) and the same request from the Python client (perf/_python_client.ts:
 *   `http.client`, keep-alive, every `data:` line parsed), interleaved; each of the three goes
 *   first, second and third in turn.
 * - The same rounds against the replay server (perf/_replay_server.ts, a process of its own):
 *   llama-server's bytes (router head, `Connection: close`, one chunk per token, `usage` and
 *   `timings`) with a token every `--gap-ms`, no model compute, so only the clients' costs differ.
 * - Fidelity, per localbench run: decode tokens/s against the server's
 *   `timings.predicted_per_second`, and time to first token against `timings.prompt_ms`; printed:
 *   the median of |Δ| (not the signed median), the largest |Δ| and the runs off by more than 5%.
 *   Goal: no run beyond 5%, median |Δ| ≤ 1%.
 * - Client overhead, per request of each client: its wall time minus the server's
 *   `prompt_ms + predicted_ms` (what the server did not spend computing); printed: median and min
 *   of each client (and of localbench over `fetch`), the ratio of the medians, and where the time
 *   goes (before the first token, after the last). Goal: ≤ 1.1× the Python client. The load
 *   average is printed at the start and the end: on a busy machine the spread is wide, compare
 *   several runs.
 *
 * Needs the engine (`deno task engine:setup`, for `--server llama` or `both`) and `python3`.
 *
 * Run: `deno run -A perf/measurement_fidelity.ts [--runs 25] [--max-tokens 256]
 * [--server both|llama|replay] [--gap-ms 1]`
 *
 * @module
 */
import {
  loadForMeasuring,
  type MeasureContext,
  measureOnce,
  promptWithNonce,
  randomNonce,
  samplingOf,
} from "../lib/bench/measure.ts";
import { type RunMetrics, runMetrics } from "../lib/bench/metrics.ts";
import type { ChatResult as RunResult } from "../lib/modelserver/backend.ts";
import { builtInDefaults } from "../lib/config/mod.ts";
import { explainMissingEngine, findEngine, startLlamaServer } from "../lib/engine/mod.ts";
import { print, printError } from "../lib/log.ts";
import { createBackend } from "../lib/modelserver/factory.ts";
import { medianOf, minOf } from "./_measure.ts";
import { type PythonClient, type PythonRun, startPythonClient } from "./_python_client.ts";
import { startReplayServer } from "./_replay_server.ts";
import { parseOptions } from "../lib/args.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "25" },
    "max-tokens": { type: "string", default: "256" },
    server: { type: "string", default: "both" },
    "gap-ms": { type: "string", default: "1" },
  },
});
const RUNS = Math.max(5, Number(values.runs));
const MAX_TOKENS = Number(values["max-tokens"]);
const SERVER = values.server as "both" | "llama" | "replay";
if (!["both", "llama", "replay"].includes(SERVER)) {
  throw new Error("--server: both, llama or replay");
}
const GAP_MS = Number(values["gap-ms"]);

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
  /** The same request through localbench over `fetch` (what the HTTP/1.1 client replaced). */
  fetchOverhead: number | null;
  py: PythonRun;
  pyOverhead: number | null;
}

const serverMs = (prompt?: number | null, predicted?: number | null) =>
  typeof prompt === "number" && typeof predicted === "number" ? prompt + predicted : null;

function printRounds(model: string, rounds: Round[]): void {
  print(`\n${model} (${rounds.length} rounds, up to ${MAX_TOKENS} tokens)`);
  print(
    "run  tok/s tool  tok/s srv      Δ%   TTFT tool   TTFT srv      Δ%  overhead  py overhead" +
      "  via fetch",
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
      f(r.fetchOverhead, 2, 10),
    ].join(" "));
  });
}

function summary(all: Round[], against: string): void {
  const decode = nums(all.map((r) => rel(r.tool.tokens_per_sec, r.tool.server_tokens_per_sec)))
    .map(Math.abs);
  const ttft = nums(all.map((r) => rel(r.tool.ttft_ms, r.tool.server_ttft_ms))).map(Math.abs);
  const tool = nums(all.map((r) => r.toolOverhead));
  const py = nums(all.map((r) => r.pyOverhead));
  const viaFetch = nums(all.map((r) => r.fetchOverhead));
  print(`\nAgainst ${against}, over ${all.length} runs:`);
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
  print(
    `  the same through fetch instead of the HTTP/1.1 client: median ${
      f(medianOf(viaFetch), 2, 0)
    } ms (min ${f(minOf(viaFetch), 2, 0)}); ratio ${
      (medianOf(viaFetch) / medianOf(py)).toFixed(2)
    }×`,
  );
}

/** What a measured request needs: the tool's context and instance, the peer and its body. */
interface Target {
  model: string;
  ctx: MeasureContext;
  /** The same context with a backend over `fetch`. */
  viaFetch: MeasureContext;
  id: string;
  python: PythonClient;
  pyBody: () => Record<string, unknown>;
}

/**
 * One warm-up request of each client, then `RUNS` rounds of one request each, interleaved; who
 * goes first alternates from round to round.
 */
async function measureRounds(t: Target): Promise<Round[]> {
  const overheadOf = (result: RunResult) => {
    const m = runMetrics(result);
    const server = serverMs(m.server_prompt_ms, m.server_predicted_ms);
    return { m, overhead: server === null ? null : m.total_ms - server };
  };
  await measureOnce(t.ctx, t.id);
  await measureOnce(t.viaFetch, t.id);
  await t.python.run(t.pyBody());
  const rounds: Round[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Three clients, each first, second and third in turn.
    let tool: { result: RunResult } | null = null;
    let viaFetch: { result: RunResult } | null = null;
    let py: PythonRun | null = null;
    for (let k = 0; k < 3; k++) {
      const which = (i + k) % 3;
      if (which === 0) tool = await measureOnce(t.ctx, t.id);
      else if (which === 1) viaFetch = await measureOnce(t.viaFetch, t.id);
      else py = await t.python.run(t.pyBody());
    }
    const own = overheadOf(tool!.result);
    const pyServer = serverMs(py!.timings.prompt_ms, py!.timings.predicted_ms);
    rounds.push({
      model: t.model,
      tool: own.m,
      toolLast: tool!.result.client.last_token_ms ?? null,
      toolOverhead: own.overhead,
      fetchOverhead: overheadOf(viaFetch!.result).overhead,
      py: py!,
      pyOverhead: pyServer === null ? null : py!.wall_ms - pyServer,
    });
  }
  printRounds(t.model, rounds);
  return rounds;
}

const config = builtInDefaults();
config.inference.max_tokens = MAX_TOKENS;

/** The Python client's request body: the tool's sampling, a fresh nonce, no prompt cache. */
const pyBody = (model: string) => () => ({
  model,
  messages: [{ role: "user", content: promptWithNonce(config.prompt, randomNonce()) }],
  ...samplingOf(config),
  stream: true,
  stream_options: { include_usage: true },
  cache_prompt: false,
});

/** A backend over Deno's `fetch` (what the HTTP/1.1 client replaced), for comparison. */
const viaFetch = {
  backend: "openai",
  timeout_ms: 60_000,
  fetch: globalThis.fetch.bind(globalThis),
} as const;

/** The rounds against the real engine, per model (loaded, measured, unloaded). */
async function againstLlama(): Promise<Round[] | null> {
  const engine = findEngine();
  if (!engine) {
    printError(explainMissingEngine() ?? "the engine is not built");
    return null;
  }
  await using server = await startLlamaServer({
    server: engine.server,
    modelsDir: engine.modelsDir,
    startupTimeoutMs: 30_000,
  });
  const backend = createBackend({ backend: "openai", base_url: server.url, timeout_ms: 60_000 });
  const overFetch = createBackend({ ...viaFetch, base_url: server.url });
  const python = startPythonClient(server.url);
  const all: Round[] = [];
  try {
    for (const model of engine.manifest.models.map((m) => m.name)) {
      const { id, ctx } = await loadForMeasuring(backend, config, model);
      const fetchCtx = { ...ctx, backend: overFetch };
      all.push(
        ...await measureRounds({ model, ctx, viaFetch: fetchCtx, id, python, pyBody: pyBody(id) }),
      );
      await backend.unload(id);
    }
  } finally {
    await python.close();
    await backend.close();
    await overFetch.close();
  }
  return all;
}

/** The rounds against the replay server: no model, so only the clients' costs differ. */
async function againstReplay(): Promise<Round[]> {
  await using server = await startReplayServer({ tokens: MAX_TOKENS, gapMs: GAP_MS });
  const backend = createBackend({ backend: "openai", base_url: server.url, timeout_ms: 60_000 });
  const overFetch = createBackend({ ...viaFetch, base_url: server.url });
  const python = startPythonClient(server.url);
  const ctx: MeasureContext = {
    backend,
    config,
    signal: new AbortController().signal,
    nonce: randomNonce,
    reload: () => Promise.resolve("replay"),
  };
  try {
    return await measureRounds({
      model: "replay",
      ctx,
      viaFetch: { ...ctx, backend: overFetch },
      id: "replay",
      python,
      pyBody: pyBody("replay"),
    });
  } finally {
    await python.close();
    await backend.close();
    await overFetch.close();
  }
}

const load = () => Deno.loadavg().map((l) => l.toFixed(1)).join(", ");

async function main(): Promise<number> {
  print(`load average at the start: ${load()} (${navigator.hardwareConcurrency} cores)`);
  if (SERVER !== "replay") {
    const rounds = await againstLlama();
    if (rounds === null) return 1;
    summary(rounds, "llama-server");
  }
  if (SERVER !== "llama") {
    summary(await againstReplay(), `the replay server (no model, a token every ${GAP_MS} ms)`);
  }
  print(`\nload average at the end: ${load()}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
