/**
 * Deterministic generation for the doubles: words picked by a PRNG seeded from the double's seed,
 * the model and the prompt, with server timings derived from the model's nominal speed and a
 * seeded per-token delay.
 *
 * @module
 */

const WORDS = (
  "the model reads data and learns patterns from examples so that it can predict new values " +
  "machine learning uses statistics to fit functions a network of layers adjusts weights " +
  "during training loss falls as gradients guide each step toward better answers"
).split(" ");

/** FNV-1a 32-bit hash of a text. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Input of {@linkcode generate}. */
export interface GenerateInput {
  seed: number;
  /** Variant key (speed differs per variant). */
  model: string;
  prompt: string;
  maxTokens: number;
  speedTps: number;
  prefillTps: number;
  /** Real delay per token for a 100 tok/s model (scaled by speed). 0 = no delay. */
  tokenDelayMs: number;
}

/** A deterministic answer with its server-side timings. */
export interface Generation {
  tokens: string[];
  tokensIn: number;
  ttftSeconds: number;
  tokensPerSecond: number;
  stopReason: "eosFound" | "maxPredictedTokensReached";
  /** Real delay before each token, in ms. */
  delaysMs: number[];
}

/** Rough token count of a text (4 characters a token), plus a template overhead. */
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4) + 8;
}

/**
 * Generates an answer: the same seed, model and prompt always give the same words and figures.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generate } from "./_lmstudio_gen.ts";
 * const input = { seed: 1, model: "m", prompt: "hi", maxTokens: 5, speedTps: 50, prefillTps: 500, tokenDelayMs: 0 };
 * assert.equal(generate(input).tokens.join(""), generate(input).tokens.join(""));
 * ```
 */
export function generate(input: GenerateInput): Generation {
  const rnd = prng(hash32(`${input.seed}|${input.model}|${input.prompt}`));
  const natural = 24 + Math.floor(rnd() * 200);
  const n = Math.max(0, Math.min(natural, input.maxTokens));
  const tokens: string[] = [];
  const delaysMs: number[] = [];
  const scale = input.speedTps > 0 ? 100 / input.speedTps : 1;
  for (let i = 0; i < n; i++) {
    const word = WORDS[Math.floor(rnd() * WORDS.length)]!;
    tokens.push(i === 0 ? word[0]!.toUpperCase() + word.slice(1) : " " + word);
    delaysMs.push(input.tokenDelayMs * scale * (0.8 + 0.4 * rnd()));
  }
  if (n > 0 && n === natural) tokens[n - 1] += ".";
  const tokensIn = countTokens(input.prompt);
  return {
    tokens,
    tokensIn,
    ttftSeconds: round3(0.02 + (tokensIn / input.prefillTps) * (0.9 + 0.2 * rnd())),
    tokensPerSecond: round2(input.speedTps * (0.95 + 0.1 * rnd())),
    stopReason: n === natural ? "eosFound" : "maxPredictedTokensReached",
    delaysMs,
  };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
