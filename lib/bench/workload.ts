/**
 * Controlled workloads: the grid of prompt and output lengths (`--prompt-tokens`,
 * `--gen-tokens`), how each length is reached on this server, and the llama-bench-style figures
 * per cell: prefill (pp) and decode (tg) tokens/s ± standard deviation.
 *
 * @module
 */
import type { WorkloadOptions } from "./options.ts";
import type { Backend, ChatRequest } from "../modelserver/mod.ts";
import { cellLabel, type Row } from "../store/mod.ts";
import type { RunMetrics } from "./metrics.ts";
import type { CountMethod, TokenCounter } from "./prompt_builder.ts";
import { quantile, summarize } from "../stats.ts";

export { cellLabel };

/**
 * One cell of the grid; null lengths mean "as configured" (the prompt, up to max_tokens);
 * `kv_depth` context tokens come before the prompt (null: none).
 */
export interface Cell {
  prompt_tokens: number | null;
  gen_tokens: number | null;
  kv_depth?: number | null;
}

/**
 * The cells of a workload: depths outer (as llama-bench prints them), then prompt lengths, then
 * output lengths; one default cell without a workload. Depth 0 is a cell without depth.
 */
export function cellsOf(w: WorkloadOptions): Cell[] {
  const prompts = w.prompt_tokens.length ? w.prompt_tokens : [null];
  const gens = w.gen_tokens.length ? w.gen_tokens : [null];
  const depths = w.kv_depth?.some((d) => d > 0) ? w.kv_depth.map((d) => d || null) : [null];
  return depths.flatMap((d) =>
    prompts.flatMap((p) =>
      gens.map((g) => ({ prompt_tokens: p, gen_tokens: g, ...(d ? { kv_depth: d } : {}) }))
    )
  );
}

/**
 * How prompt lengths are counted on this backend: the server's tokenizer when it has one (exact),
 * else one-token probe requests whose prompt tokens the server reports (calibrated).
 */
export async function promptCounter(
  backend: Backend,
  model: string,
  sampling: Omit<ChatRequest, "model" | "messages">,
): Promise<{ method: CountMethod; count: TokenCounter }> {
  const messages = (content: string) => [{ role: "user" as const, content }];
  if (backend.promptTokens && (await backend.promptTokens(model, messages("probe"))) !== null) {
    return { method: "tokenizer", count: (c) => backend.promptTokens!(model, messages(c)) };
  }
  return {
    method: "calibrated",
    count: async (c) => {
      // A probe leaves nothing in the prompt cache (a shared prefix's first request is cold).
      const r = await backend.chat({
        ...sampling,
        model,
        messages: messages(c),
        max_tokens: 1,
        noCache: true,
      });
      return r.stats.tokens_in > 0 ? r.stats.tokens_in : null;
    },
  };
}

/** A measured run of a cell. */
export interface CellRun {
  cell: Cell;
  metrics: RunMetrics;
  /** The prompt's length was confirmed by the server's tokenizer. */
  prompt_exact: boolean;
  /** The output length asked for by this run (drawn around the cell's with a spread). */
  gen_target?: number | null;
}

/**
 * Whether a run with an output target stopped before it on its own (an end of sequence or a stop
 * string, not the length limit); null without a target or a count.
 */
export function stoppedEarly(
  target: number | null | undefined,
  m: Pick<RunMetrics, "tokens_out" | "stop_reason">,
): 0 | 1 | null {
  if (target === null || target === undefined || m.tokens_out === null) return null;
  const limit = m.stop_reason === "length" || m.stop_reason === "maxPredictedTokensReached";
  return m.tokens_out < target && !limit ? 1 : 0;
}

const round = (v: number | null, digits = 3) =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits;

/** The grid rows of a model (store `grid_cells`), one per cell that has runs. */
export function gridRows(cells: Cell[], runs: CellRun[], outputExact: boolean): Row[] {
  const rows: Row[] = [];
  for (const cell of cells) {
    const mine = runs.filter((r) => r.cell === cell);
    if (mine.length === 0) continue;
    const m = mine.map((r) => r.metrics);
    const pp = summarize(m.map((r) => r.prefill_tokens_per_sec));
    const tg = summarize(m.map((r) => r.tokens_per_sec));
    const ttft = m.map((r) => r.ttft_ms).filter((v): v is number => v !== null).sort((a, b) =>
      a - b
    );
    const tpot = m.map((r) => r.tpot_ms).filter((v): v is number => v !== null).sort((a, b) =>
      a - b
    );
    const serverPp = summarize(
      m.map((r) =>
        r.server_prompt_ms && r.tokens_in ? r.tokens_in / (r.server_prompt_ms / 1000) : null
      ),
    );
    rows.push({
      prompt_tokens: cell.prompt_tokens,
      gen_tokens: cell.gen_tokens,
      ...(cell.kv_depth ? { kv_depth: cell.kv_depth } : {}),
      runs: mine.length,
      prompt_tokens_mean: round(summarize(m.map((r) => r.tokens_in)).mean),
      gen_tokens_mean: round(summarize(m.map((r) => r.tokens_out)).mean),
      prompt_exact: cell.prompt_tokens !== null && mine.every((r) => r.prompt_exact) ? 1 : 0,
      gen_exact: cell.gen_tokens !== null && outputExact &&
          mine.every((r) => r.metrics.tokens_out === (r.gen_target ?? cell.gen_tokens))
        ? 1
        : 0,
      pp_tps_mean: pp.mean,
      pp_tps_std: pp.std,
      tg_tps_mean: tg.mean,
      tg_tps_std: tg.std,
      ttft_ms_mean: summarize(ttft).mean,
      ttft_ms_p99: quantile(ttft, 0.99),
      tpot_ms_mean: summarize(tpot).mean,
      tpot_ms_p99: quantile(tpot, 0.99),
      server_pp_tps_mean: serverPp.mean,
      server_tg_tps_mean: summarize(m.map((r) => r.server_tokens_per_sec)).mean,
    });
  }
  return rows;
}
