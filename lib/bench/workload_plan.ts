/**
 * A model's workload plan: where each request's prompt and output length come from — a cell of
 * the grid (its lengths, or lengths drawn around them with `--prompt-tokens-stddev`,
 * `--gen-tokens-stddev` or `--range-ratio`, from a generator seeded by `--seed`), or the next
 * entry of a `--dataset` — how prompt lengths are counted and whether output lengths are forced.
 *
 * @module
 */
import type { Backend, ChatRequest } from "../modelserver/mod.ts";
import { createRandom, type Random } from "../engine/mod.ts";
import type { Dataset } from "./dataset.ts";
import { drawLength, type LengthSpread, spreads } from "./distributions.ts";
import { promptWithNonce, type RequestShape } from "./measure.ts";
import type { FullWorkload } from "./options.ts";
import { type CountMethod, PromptBuilder, type TokenCounter } from "./prompt_builder.ts";
import { type Cell, cellLabel, cellsOf, promptCounter } from "./workload.ts";
import { buildSharedPrefix, type SharedPrefix } from "./shared_prefix.ts";

/** One request of a plan and the lengths it asks for. */
export interface PlannedRequest {
  shape: RequestShape;
  /** The prompt's length was confirmed by the server's tokenizer. */
  prompt_exact: boolean;
  prompt_target: number | null;
  gen_target: number | null;
}

/** A dataset whose ShareGPT replies were counted: by the server's `tokenizer`, or `estimated`. */
export type CountedDataset = Dataset & { output_tokens_method?: "tokenizer" | "estimated" };

/**
 * Counts the ShareGPT replies of a dataset with the server's tokenizer where it has one: the
 * count of the reply as a message less that of an empty message (the chat template's share), as
 * vLLM counts a reply with the model's tokenizer. Elsewhere the estimate of the file stays.
 */
export async function countReplies(
  backend: Backend,
  model: string,
  dataset: Dataset,
): Promise<CountedDataset> {
  if (!dataset.entries.some((e) => e.reply !== undefined)) return dataset;
  const count = (content: string) =>
    backend.promptTokens?.(model, [{ role: "user", content }]) ?? Promise.resolve(null);
  const base = await count("");
  if (base === null) return { ...dataset, output_tokens_method: "estimated" };
  const entries = [];
  for (const e of dataset.entries) {
    const n = e.reply === undefined ? null : await count(e.reply);
    entries.push(n === null ? e : { ...e, output_tokens: Math.max(1, n - base) });
  }
  return { ...dataset, entries, output_tokens_method: "tokenizer" };
}

/** A model's workload: its cells, datasets and draws, how lengths are counted and forced. */
export class WorkloadPlan {
  readonly cells: Cell[];
  readonly method: CountMethod | null;
  readonly outputControl: "exact" | "max";
  readonly dataset: CountedDataset | null;
  /** The prefix of every measured request (`--shared-prefix-tokens`), or null. */
  readonly prefix: (SharedPrefix & { target: number }) | null;
  readonly #count: TokenCounter | null;
  readonly #builders = new Map<number, PromptBuilder>();
  readonly #prompt: LengthSpread;
  readonly #gen: LengthSpread;
  readonly #random: Random;
  #taken = 0;

  private constructor(
    workload: FullWorkload,
    dataset: CountedDataset | null,
    outputControl: "exact" | "max",
    counter: { method: CountMethod; count: TokenCounter } | null,
    prefix: SharedPrefix | null = null,
  ) {
    this.cells = cellsOf(workload);
    this.prefix = prefix ? { ...prefix, target: workload.shared_prefix_tokens } : null;
    this.dataset = dataset;
    this.method = counter?.method ?? null;
    this.#count = counter?.count ?? null;
    this.outputControl = outputControl;
    this.#prompt = { stddev: workload.prompt_tokens_stddev, range_ratio: workload.range_ratio };
    this.#gen = { stddev: workload.gen_tokens_stddev, range_ratio: workload.range_ratio };
    this.#random = createRandom(workload.seed);
  }

  /** Prepares the workload of a loaded model (asks the server for its tokenizer). */
  static async prepare(
    backend: Backend,
    instanceId: string,
    workload: FullWorkload,
    sampling: Omit<ChatRequest, "model" | "messages">,
    dataset: Dataset | null = null,
  ): Promise<WorkloadPlan> {
    const outputs = workload.gen_tokens.length > 0 ||
      (dataset?.entries.some((e) => e.output_tokens !== null) ?? false);
    const control = outputs ? (await backend.outputControl?.()) ?? "max" : "max";
    const depth = workload.kv_depth.some((d) => d > 0);
    const counter = (workload.prompt_tokens.length || depth) && dataset === null
      ? await promptCounter(backend, instanceId, sampling)
      : null;
    const counted = dataset ? await countReplies(backend, instanceId, dataset) : null;
    let prefix: SharedPrefix | null = null;
    if (workload.shared_prefix_tokens > 0) {
      // The prefix alone is counted as a dataset's reply: less the chat template's share.
      const count = counter?.count ??
        (await promptCounter(backend, instanceId, sampling)).count;
      prefix = await buildSharedPrefix(workload.shared_prefix_tokens, count);
    }
    return new WorkloadPlan(workload, counted, control, counter, prefix);
  }

  /** Whether requests follow the plan (a grid of lengths or a dataset), not the configured prompt. */
  get controlled(): boolean {
    return this.dataset !== null || this.prefix !== null ||
      this.cells.some((c) => c.prompt_tokens !== null || c.gen_tokens !== null || !!c.kv_depth);
  }

  #builder(length: number): PromptBuilder {
    let b = this.#builders.get(length);
    if (!b) this.#builders.set(length, b = new PromptBuilder(length, this.method!, this.#count!));
    return b;
  }

  /**
   * A request of `prompt` tokens after `depth` context tokens (one prompt of their sum: the
   * server prefills both, then decodes after them), and `gen` output tokens.
   */
  async #shaped(
    prompt: number | null,
    gen: number | null,
    nonce: string,
    depth: number | null = null,
  ): Promise<PlannedRequest> {
    const shape: RequestShape = {};
    let exact = false;
    const length = depth ? depth + (prompt ?? 0) : prompt;
    if (length !== null) {
      const built = await this.#builder(length).build(nonce);
      shape.content = built.content;
      exact = built.exact;
    }
    if (gen !== null) {
      shape.max_tokens = gen;
      shape.exact_output = this.outputControl === "exact";
    }
    return { shape, prompt_exact: exact, prompt_target: prompt, gen_target: gen };
  }

  /** A planned request with the shared prefix in front (when there is one). */
  #prefixed(p: PlannedRequest): PlannedRequest {
    return this.prefix ? { ...p, shape: { ...p.shape, prefix: this.prefix.text } } : p;
  }

  /** The request of dataset entry `i` (modulo its size). */
  #fromDataset(i: number, nonce: string): PlannedRequest {
    const entries = this.dataset!.entries;
    const entry = entries[i % entries.length]!;
    const shape: RequestShape = { content: promptWithNonce(entry.prompt, nonce) };
    if (entry.output_tokens !== null) {
      shape.max_tokens = entry.output_tokens;
      shape.exact_output = this.outputControl === "exact";
    }
    return { shape, prompt_exact: false, prompt_target: null, gen_target: entry.output_tokens };
  }

  /**
   * The next request of `cell` with a fresh nonce: the dataset's next entry, or the cell's lengths
   * (drawn around them when a spread is set).
   */
  async request(cell: Cell, nonce: string): Promise<PlannedRequest> {
    if (this.dataset) return this.#prefixed(this.#fromDataset(this.#taken++, nonce));
    const draw = (target: number | null, spread: LengthSpread) =>
      target === null ? null : drawLength(target, spread, this.#random);
    return this.#prefixed(
      await this.#shaped(
        draw(cell.prompt_tokens, this.#prompt),
        draw(cell.gen_tokens, this.#gen),
        nonce,
        cell.kv_depth ?? null,
      ),
    );
  }

  /**
   * Warm-up request `i`: the first cell's lengths (no draw), or dataset entry `i`; neither moves
   * the measured requests' sequence. Without the shared prefix: the first measured request is
   * the one that finds it cold.
   */
  async warmupRequest(i: number, nonce: string): Promise<PlannedRequest> {
    if (this.dataset) return this.#fromDataset(i, nonce);
    const cell = this.cells[0]!;
    return await this.#shaped(cell.prompt_tokens, cell.gen_tokens, nonce, cell.kv_depth ?? null);
  }

  /** What reports say about the workload (`results.workload_json`). */
  summary(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      cells: this.cells.map(cellLabel),
      prompt_tokens_method: this.method,
      output_length: this.outputControl === "exact" ? "forced (ignore_eos)" : "maximum",
    };
    if (spreads(this.#prompt)) out.prompt_tokens_spread = { ...this.#prompt };
    if (spreads(this.#gen)) out.gen_tokens_spread = { ...this.#gen };
    if (this.prefix) {
      const { target, tokens, exact } = this.prefix;
      out.shared_prefix = { tokens: target, tokens_counted: tokens, exact };
    }
    if (this.dataset) {
      const { path, format, sha256, entries, skipped, output_tokens_method } = this.dataset;
      out.dataset = { path, format, sha256, requests: entries.length, skipped };
      if (output_tokens_method) out.dataset = { ...out.dataset as object, output_tokens_method };
    }
    return out;
  }
}
