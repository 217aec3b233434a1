/**
 * The name people see for a model. llama.cpp's server (started with `-m FILE`) and some others
 * use the model file's whole path as the model id (`/root/.cache/…/tiny-a.gguf`): people see the
 * file's name without its extension (`tiny-a`). Other ids (`qwen/qwen3-4b`, `tiny-b`) are shown as
 * they are. The full id stays in the store, the JSON report and every API.
 *
 * Runs in the browser too (no Deno APIs).
 *
 * @module
 */

const MODEL_FILE = /\.(gguf|ggml|bin|safetensors|mlx|pt|pth|onnx)(?=@[^/\\]*$|$)/i;

/**
 * The short name of a model id: the file name without extension for an id that is a file path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shortModelName } from "./model_name.ts";
 * assert.equal(shortModelName("/root/.cache/localbench/engine/models/tiny-a.gguf"), "tiny-a");
 * assert.equal(shortModelName("qwen/qwen3-4b"), "qwen/qwen3-4b");
 * ```
 */
export function shortModelName(id: string): string {
  const isPath = /^(\/|\.{1,2}\/|~\/|[A-Za-z]:[\\/])/.test(id) || MODEL_FILE.test(id);
  if (!isPath) return id;
  const file = id.split(/[\\/]/).filter(Boolean).at(-1) ?? id;
  return file.replace(MODEL_FILE, "") || file;
}
