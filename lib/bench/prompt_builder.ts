/**
 * Prompts of an exact length (`--prompt-tokens N`): a nonce first (no prompt cache can serve a
 * run), then common English words until the server's own count of the whole chat prompt (its
 * template included) is N. Where the server offers its tokenizer (llama.cpp `/apply-template` +
 * `/tokenize`, the LM Studio SDK) every run's prompt is counted and adjusted, so the length is
 * exact; elsewhere the word count is calibrated once per model and length with short probe
 * requests whose prompt tokens the server reports, and the runs are reported as approximate.
 *
 * @module
 */
import { UpstreamError, UsageError } from "../error.ts";

/** Filler words: common English words, each one token in the usual vocabularies. */
const WORDS = (
  "the of and to in is it that for on with as was at by be this have from or one had not but " +
  "what all were when we there can an your which their said if do will each about how up out " +
  "them then she many some so these would other into has more her two like him see time could " +
  "no make than first been its who now people my made over did down only way find use may water " +
  "long little very after words called just where most know"
).split(" ");

/** The text of `k` filler words after the nonce. */
export function fillerText(nonce: string, k: number): string {
  const words: string[] = [];
  for (let i = 0; i < k; i++) words.push(WORDS[i % WORDS.length]!);
  return `[${nonce}] ${words.join(" ")}`.trimEnd();
}

/** Counts the prompt tokens of a user message with this content (null: cannot tell). */
export type TokenCounter = (content: string) => Promise<number | null>;

/** A built prompt. */
export interface BuiltPrompt {
  content: string;
  /** The server's count of the whole prompt, null when unknown. */
  tokens: number | null;
  /** True when the count is the target, confirmed by the server's tokenizer. */
  exact: boolean;
}

/** How a builder counts. */
export type CountMethod = "tokenizer" | "calibrated";

/** Most counts for one prompt (each is a request to the server). */
const MAX_COUNTS = 12;

/**
 * Builds prompts of `target` tokens for one model. The word count found for one prompt is the
 * start for the next (another nonce changes the count by a token or two at most).
 */
export class PromptBuilder {
  readonly target: number;
  readonly method: CountMethod;
  readonly #count: TokenCounter;
  #words: number | null = null;
  #perWord = 1;

  constructor(target: number, method: CountMethod, count: TokenCounter) {
    this.target = target;
    this.method = method;
    this.#count = count;
  }

  /** A prompt of the target length with this nonce (counted when the method is the tokenizer). */
  async build(nonce: string): Promise<BuiltPrompt> {
    if (this.#words === null || this.method === "tokenizer") {
      return await this.#search(nonce);
    }
    return { content: fillerText(nonce, this.#words), tokens: null, exact: false };
  }

  async #counted(nonce: string, k: number): Promise<number> {
    const n = await this.#count(fillerText(nonce, k));
    if (n === null || n <= 0) {
      throw new UpstreamError(
        "Cannot build a prompt of --prompt-tokens tokens: the server does not report prompt token counts",
        { code: "no_token_counts" },
      );
    }
    return n;
  }

  /** Finds the word count whose prompt has the target length (or the closest below). */
  async #search(nonce: string): Promise<BuiltPrompt> {
    const base = await this.#counted(nonce, 0);
    if (base > this.target) {
      throw new UsageError(
        `Cannot build a prompt of ${this.target} tokens: the chat template and the nonce alone ` +
          `take ${base}; use --prompt-tokens ${base + 1} or more`,
        { code: "prompt_too_short" },
      );
    }
    let k = this.#words ?? Math.max(0, Math.round((this.target - base) / this.#perWord));
    let best: { k: number; n: number } = { k: 0, n: base };
    for (let i = 0; i < MAX_COUNTS; i++) {
      const n = k === 0 ? base : await this.#counted(nonce, k);
      if (k > 0) this.#perWord = Math.max(0.25, (n - base) / k);
      if (n <= this.target && n >= best.n) best = { k, n };
      if (n === this.target) break;
      const step = (this.target - n) / this.#perWord;
      const next = Math.max(
        0,
        k + (step > 0 ? Math.max(1, Math.floor(step)) : Math.min(-1, Math.ceil(step))),
      );
      if (next === k) break;
      k = next;
    }
    this.#words = best.k;
    return {
      content: fillerText(nonce, best.k),
      tokens: best.n,
      exact: best.n === this.target && this.method === "tokenizer",
    };
  }
}
