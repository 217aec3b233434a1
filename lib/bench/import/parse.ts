/**
 * Reading another tool's result file: llama-bench `-o json` (an array of tests) or `-o jsonl` (one
 * test a line), or `vllm bench serve --save-result` JSON (one object). A file that is none of
 * these, or a record missing what a result needs, fails as a whole with one line naming the file,
 * the record and what is wrong.
 *
 * @module
 */
import { basename } from "node:path";
import type { ImportedResult } from "../../store/mod.ts";
import { importError, type JsonRecord, RecordReader } from "./record.ts";
import { isLlamaBenchRecord, LLAMA_BENCH, llamaBenchResult } from "./llama_bench.ts";
import { isVllmRecord, VLLM_BENCH, vllmResult } from "./vllm.ts";

/** The records of a file's text, each with its place (`record 2`, `line 2`), and the tool. */
function recordsOf(text: string, file: string): { tool: string; records: [JsonRecord, string][] } {
  const trimmed = text.trim();
  if (trimmed === "") throw importError(file, null, "the file is empty");
  let whole: unknown;
  let wholeError: string | null = null;
  try {
    whole = JSON.parse(trimmed);
  } catch (err) {
    wholeError = (err as Error).message;
  }
  if (wholeError === null) {
    if (Array.isArray(whole)) {
      if (whole.length === 0) throw importError(file, null, "the llama-bench array is empty");
      whole.forEach((r, i) => {
        if (!isLlamaBenchRecord(r)) {
          throw importError(
            file,
            `record ${i + 1}`,
            "not a llama-bench test (model_filename, n_prompt, n_gen)",
          );
        }
      });
      return { tool: LLAMA_BENCH, records: whole.map((r, i) => [r, `record ${i + 1}`]) };
    }
    if (isVllmRecord(whole)) {
      return { tool: VLLM_BENCH, records: [[whole as JsonRecord, "result"]] };
    }
    if (isLlamaBenchRecord(whole)) {
      return { tool: LLAMA_BENCH, records: [[whole as JsonRecord, "line 1"]] };
    }
    throw importError(
      file,
      null,
      "not llama-bench output (-o json, -o jsonl) nor a vllm bench serve --save-result file",
    );
  }
  // JSON Lines: llama-bench -o jsonl.
  const records: [JsonRecord, string][] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (err) {
      if (i === 0 && !line.startsWith("{")) {
        throw importError(file, null, `not JSON nor JSON Lines (${wholeError})`);
      }
      throw importError(file, `line ${i + 1}`, `not JSON (${(err as Error).message})`);
    }
    if (!isLlamaBenchRecord(v)) {
      throw importError(
        file,
        `line ${i + 1}`,
        "not a llama-bench test (model_filename, n_prompt, n_gen)",
      );
    }
    records.push([v as JsonRecord, `line ${i + 1}`]);
  }
  return { tool: LLAMA_BENCH, records };
}

/** The results a file's text holds (nothing stored); throws one named error when malformed. */
export function parseImport(
  text: string,
  file: string,
): { tool: string; results: ImportedResult[] } {
  const { tool, records } = recordsOf(text, file);
  const name = basename(file);
  const results = records.map(([record, place]) => {
    const reader = new RecordReader(record, file, place);
    return tool === VLLM_BENCH ? vllmResult(reader, name) : llamaBenchResult(reader, name);
  });
  return { tool, results };
}
