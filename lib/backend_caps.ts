/**
 * What each backend's API can set when it loads a model: the load values (`context_length` and
 * the `load` keys) it sends; the rest are the server's own. The benchmark's honest parameters and
 * a result's identity (a value a backend cannot set does not change what is measured) read it.
 *
 * Kept free of imports: the store hashes identities with it, and a script that opens the store
 * needs nothing else.
 *
 * @module
 */

/** The load values each backend's API can set (the rest are the server's own). */
const SETS: Readonly<Record<string, ReadonlySet<string>>> = {
  sdk: new Set([
    "context_length",
    "n_gpu_layers",
    "n_batch",
    "n_threads",
    "flash_attention",
    "rope_freq_base",
    "rope_freq_scale",
    "use_mmap",
    "use_mlock",
    "kv_cache_quant",
  ]),
  rest: new Set(["context_length", "n_batch", "flash_attention"]),
  openai: new Set(),
};

/** Whether a backend can set a load value (`context_length` or a `load` key). */
export function canSet(backend: string, key: string): boolean {
  return SETS[backend]?.has(key) ?? false;
}
