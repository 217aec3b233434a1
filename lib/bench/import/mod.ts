/**
 * Importing other tools' results (`--import`): llama-bench and `vllm bench serve` files.
 *
 * @module
 */
export { importFile, type ImportSummary } from "./import_file.ts";
export { parseImport } from "./parse.ts";
export { LLAMA_BENCH } from "./llama_bench.ts";
export { VLLM_BENCH } from "./vllm.ts";
