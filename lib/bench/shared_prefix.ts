/**
 * `--shared-prefix-tokens N`: the same first N tokens in every request of a model, so the server's
 * prompt cache can serve them after the first request (vLLM's prefix-repetition workloads). The
 * prefix is common words, counted as the reply of a dataset is: the user message's count less
 * that of an empty one (the chat template's share); without a count it is N words, each one
 * token in the usual vocabularies. The nonce follows the prefix, so nothing after it is cached.
 *
 * The effect is read from the sequential runs: the first request of a model found no prefix in
 * the cache (its warm-ups carry none), the others could reuse it.
 *
 * @module
 */
import { quantile, summarize } from "../stats.ts";
import { shortModelName } from "../shared/model_name.ts";
import type { ResultRow } from "../store/mod.ts";
import { aligned } from "./table.ts";
import type { TokenCounter } from "./prompt_builder.ts";

/** Words of the prefix (one token each in the usual vocabularies). */
const WORDS = ("system context shared by every request of this benchmark " +
  "so that a prompt cache may serve it").split(" ");

/** The prefix text of `k` words; it ends with a blank line before each request's own text. */
export function prefixText(k: number): string {
  const words = Array.from({ length: k }, (_, i) => WORDS[i % WORDS.length]!);
  return `${words.join(" ")}\n\n`;
}

/** A built prefix: its text, its token count (null: not counted), whether that is exactly N. */
export interface SharedPrefix {
  text: string;
  tokens: number | null;
  exact: boolean;
}

/** Most counts while looking for the length (each is a request to the server). */
const MAX_COUNTS = 12;

/** Builds the prefix of `n` tokens, counted with `count` where the server can count. */
export async function buildSharedPrefix(
  n: number,
  count: TokenCounter | null,
): Promise<SharedPrefix> {
  const base = count ? await count("") : null;
  if (count === null || base === null) return { text: prefixText(n), tokens: null, exact: false };
  let k = n;
  let best = { k, tokens: -1 };
  for (let i = 0; i < MAX_COUNTS; i++) {
    const total = await count(prefixText(k));
    if (total === null) return { text: prefixText(n), tokens: null, exact: false };
    const tokens = total - base;
    if (Math.abs(tokens - n) < Math.abs(best.tokens - n)) best = { k, tokens };
    if (tokens === n) break;
    const next = Math.max(1, k + (n - tokens));
    if (next === k) break;
    k = next;
  }
  return { text: prefixText(best.k), tokens: best.tokens, exact: best.tokens === n };
}

/** TTFT of the request that found the prefix cold (the first) and of those that could reuse it. */
export interface PrefixEffect {
  tokens: number;
  tokens_counted: number | null;
  cold_ttft_ms: number | null;
  warm_ttft_ms_mean: number | null;
  warm_ttft_ms_median: number | null;
  warm_requests: number;
  /** Prompt tokens the server took from its cache (llama.cpp), first request and the rest. */
  cold_cached_tokens: number | null;
  warm_cached_tokens_mean: number | null;
}

/** The effect of the prefix cache on TTFT, from the sequential runs' TTFTs in order. */
export function prefixEffect(
  prefix: { tokens: number; counted: number | null },
  ttfts: readonly (number | null)[],
  cached: readonly (number | null)[] = [],
): PrefixEffect {
  const warm = ttfts.slice(1).filter((v): v is number => v !== null).sort((a, b) => a - b);
  return {
    tokens: prefix.tokens,
    tokens_counted: prefix.counted,
    cold_ttft_ms: ttfts[0] ?? null,
    warm_ttft_ms_mean: summarize(warm).mean,
    warm_ttft_ms_median: quantile(warm, 0.5),
    warm_requests: warm.length,
    cold_cached_tokens: cached[0] ?? null,
    warm_cached_tokens_mean: summarize(cached.slice(1)).mean,
  };
}

/** `shared prefix 512 tokens: TTFT 120.3 ms cold (first request), 40.1 ms warm (median of 4)`. */
export function prefixEffectText(key: string, e: PrefixEffect): string {
  const ms = (v: number | null) => (v === null ? "-" : `${v.toFixed(1)} ms`);
  return `${key}: shared prefix of ${e.tokens} tokens: TTFT ${ms(e.cold_ttft_ms)} cold ` +
    `(first request, nothing cached), ${ms(e.warm_ttft_ms_median)} warm (median of the ` +
    `${e.warm_requests} after it, the prefix cached where the server keeps it)`;
}

/** The prefix effect stored with a result (`workload_json.shared_prefix`), or null. */
export function storedPrefixEffect(workloadJson: unknown): PrefixEffect | null {
  try {
    const effect = JSON.parse(String(workloadJson ?? "null"))?.shared_prefix;
    return effect && typeof effect.tokens === "number" ? effect as PrefixEffect : null;
  } catch {
    return null;
  }
}

/**
 * The console table of the prefix's effect, one line per model (a grid's cells share their
 * model's figures): the prefix, TTFT of the first request (cold) and of the rest (warm); null
 * when no result has a shared prefix.
 */
export function prefixTable(rows: readonly ResultRow[]): string | null {
  const seen = new Set<string>();
  const body: string[][] = [];
  const ms = (v: number | null) => (v === null ? "-" : v.toFixed(1));
  for (const r of rows) {
    const e = storedPrefixEffect(r.workload_json);
    if (e === null || seen.has(r.model_key)) continue;
    seen.add(r.model_key);
    body.push([
      shortModelName(r.model_key),
      String(e.tokens_counted ?? `≈${e.tokens}`),
      ms(e.cold_ttft_ms),
      ms(e.warm_ttft_ms_median),
      ms(e.warm_ttft_ms_mean),
      String(e.warm_requests),
      e.cold_cached_tokens === null ? "-" : String(e.cold_cached_tokens),
      e.warm_cached_tokens_mean === null ? "-" : e.warm_cached_tokens_mean.toFixed(0),
    ]);
  }
  if (body.length === 0) return null;
  const head = [
    "Shared prefix",
    "tokens",
    "TTFT cold ms",
    "warm p50",
    "warm mean",
    "warm n",
    "cached cold",
    "cached warm",
  ];
  return aligned(head, body, 1);
}
