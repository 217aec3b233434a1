/**
 * Datasets of requests (`--dataset PATH`): ShareGPT-format JSON (an array of
 * `{conversations: [{from: "human" | "gpt", value}]}`: the first human turn is the prompt, the
 * reply that follows it sets the output target) or JSON Lines of `{"prompt", "output_tokens"}`.
 * `--dataset-sample N` picks N entries with a shuffle seeded by `--seed`, so a run can be
 * repeated. A ShareGPT reply's length is counted by the server's tokenizer where it has one (see
 * `workload_plan.ts`), else estimated as ⌈characters ÷ 4⌉ tokens (the usual figure for English
 * text). A malformed file is refused with the line (JSON Lines) or the entry (JSON) at fault.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { UsageError } from "../error.ts";
import { createRandom } from "../engine/mod.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** One request of a dataset. */
export interface DatasetEntry {
  prompt: string;
  /** Output tokens to generate; null: up to `max_tokens`, as the model chooses. */
  output_tokens: number | null;
  /** A ShareGPT reply, whose length sets `output_tokens` (counted again by a server's tokenizer). */
  reply?: string;
}

/** A dataset read from a file. */
export interface Dataset {
  path: string;
  format: "sharegpt" | "jsonl";
  /** SHA-256 of the file's bytes, first 16 hex digits (part of the workload's identity). */
  sha256: string;
  entries: DatasetEntry[];
  /** ShareGPT conversations left out: no human turn followed by a reply. */
  skipped: number;
}

/** Characters per token of the estimate of a ShareGPT reply's length. */
export const CHARS_PER_TOKEN = 4;

const bad = (path: string, where: string, what: string) =>
  new UsageError(`Cannot read the dataset ${path}: ${where}: ${what}`, { code: "bad_dataset" });

/** The request of one ShareGPT conversation, or null when it has no human turn with a reply. */
function shareGptEntry(value: unknown, path: string, index: number): DatasetEntry | null {
  const where = `entry ${index}`;
  if (!isPlainObject(value) || !Array.isArray(value.conversations)) {
    throw bad(path, where, 'expected an object with a "conversations" list');
  }
  const turns = value.conversations as unknown[];
  for (const [i, t] of turns.entries()) {
    if (!isPlainObject(t) || typeof t.from !== "string" || typeof t.value !== "string") {
      throw bad(path, `${where}, turn ${i}`, 'expected {"from": string, "value": string}');
    }
  }
  const typed = turns as { from: string; value: string }[];
  const first = typed.findIndex((t) => t.from === "human" || t.from === "user");
  const reply = typed[first + 1];
  if (first < 0 || !reply || !typed[first]!.value.trim()) return null;
  return {
    prompt: typed[first]!.value,
    output_tokens: Math.max(1, Math.ceil(reply.value.length / CHARS_PER_TOKEN)),
    reply: reply.value,
  };
}

/** The request of one JSON Lines line. */
function jsonlEntry(line: string, path: string, n: number): DatasetEntry {
  const where = `line ${n}`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    // The parser counts lines of the one line it read: say the column only.
    const why = (err instanceof Error ? err.message : String(err))
      .replace(/ in JSON at position \d+ \(line \d+ column (\d+)\)/, " at column $1");
    throw bad(path, where, `not JSON (${why})`);
  }
  if (!isPlainObject(value) || typeof value.prompt !== "string" || !value.prompt.trim()) {
    throw bad(path, where, 'expected {"prompt": text, "output_tokens": n}');
  }
  const out = value.output_tokens;
  if (out !== undefined && out !== null && !(Number.isInteger(out) && (out as number) >= 1)) {
    throw bad(path, where, '"output_tokens" must be an integer ≥ 1');
  }
  return { prompt: value.prompt, output_tokens: (out as number | undefined) ?? null };
}

/** Parses a dataset's text (ShareGPT JSON when it starts with `[`, else JSON Lines). */
export function parseDataset(text: string, path: string): Omit<Dataset, "sha256"> {
  if (text.trimStart().startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw bad(path, "the file", `not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const list = value as unknown[];
    const entries = list.map((v, i) => shareGptEntry(v, path, i));
    const kept = entries.filter((e): e is DatasetEntry => e !== null);
    if (kept.length === 0) {
      throw bad(path, "the file", "no conversation has a human turn and a reply");
    }
    return { path, format: "sharegpt", entries: kept, skipped: entries.length - kept.length };
  }
  const entries: DatasetEntry[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim()) entries.push(jsonlEntry(line, path, i + 1));
  }
  if (entries.length === 0) throw bad(path, "the file", "no request in it");
  return { path, format: "jsonl", entries, skipped: 0 };
}

/** `n` entries picked with a shuffle seeded by `seed` (every entry, in order, when n is null). */
export function sampleEntries<T>(entries: readonly T[], n: number | null, seed: number): T[] {
  if (n === null) return [...entries];
  if (n > entries.length) {
    throw new UsageError(
      `--dataset-sample ${n} is more than the dataset's ${entries.length} request(s)`,
      { code: "bad_dataset" },
    );
  }
  const out = [...entries];
  const random = createRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, n);
}

/** Reads, checks and samples a dataset file. */
export async function loadDataset(
  path: string,
  sample: number | null,
  seed: number,
): Promise<Dataset> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound ? "no such file" : String(err);
    throw new UsageError(`Cannot read the dataset ${path}: ${why}`, { code: "bad_dataset" });
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const parsed = parseDataset(new TextDecoder().decode(bytes), path);
  return { ...parsed, sha256, entries: sampleEntries(parsed.entries, sample, seed) };
}
