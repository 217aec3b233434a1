/**
 * The code of the worker of one regex search (started by `regex_worker.ts` from a blob URL, so
 * that the permission-scoped host needs no read access to the source tree, only to re2-wasm's
 * package folder, `RE2_PACKAGE_DIR`): it loads RE2 (npm `re2-wasm`, linear time: no pattern
 * backtracks), compiles the client's pattern and answers each block of bytes with the indices
 * of its matching lines (`re2_lines.ts`).
 *
 * Messages in: `{type: "init", pattern, ignoreCase, lineCap, maxWindow}`, then `{id, bytes}`.
 * Messages out: `{type: "ready"}`, `{type: "refused", message}` (RE2 refused the pattern) or
 * `{type: "unavailable", message}` (re2-wasm could not be loaded), then `{id, lines}` or
 * `{id, failed: message}` (RE2's WebAssembly memory ran out: the search cannot go on).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { Re2Program } from "./re2_lines.ts";

/** The URL of re2-wasm's entry module (resolved through the import map). */
export const RE2_MODULE_URL: string = import.meta.resolve("re2-wasm");

/** The folder of the re2-wasm package (its code and `re2.wasm`), or null if not on disk. */
export function re2PackageDir(): string | null {
  if (!RE2_MODULE_URL.startsWith("file:")) return null;
  return fileURLToPath(new URL("../..", RE2_MODULE_URL)); // build/src/re2.js → package root
}

type MatchingLines = (
  bytes: Uint8Array,
  program: Re2Program,
  lineCap: number,
  maxWindow: number,
) => number[];

/** The worker's main function (runs alone from its source text: only globals and arguments). */
export function re2WorkerMain(moduleUrl: string, matchingLines: MatchingLines): void {
  const scope = globalThis as unknown as {
    onmessage: ((e: MessageEvent) => void) | null;
    postMessage(value: unknown): void;
  };
  const loaded = import(moduleUrl);
  loaded.catch(() => {}); // reported at "init"
  let program: Re2Program | null = null;
  let lineCap = 8192;
  let maxWindow = 256 * 1024;
  const text = (err: unknown) => err instanceof Error ? err.message : `${err}`;
  scope.onmessage = async (e) => {
    const m = e.data;
    if (m.type === "init") {
      let RE2;
      try {
        ({ RE2 } = await loaded);
      } catch (err) {
        scope.postMessage({ type: "unavailable", message: text(err) });
        return;
      }
      try {
        // "u": RE2 reads UTF-8; "m": `^` and `$` match at line breaks inside a block.
        const re = new RE2(m.pattern, `u${m.ignoreCase ? "i" : ""}m`);
        // The compiled program behind the RegExp-like class: it takes bytes as well as strings.
        program = (re as unknown as { wrapper: Re2Program }).wrapper;
        lineCap = m.lineCap;
        maxWindow = m.maxWindow;
        scope.postMessage({ type: "ready" });
      } catch (err) {
        scope.postMessage({ type: "refused", message: text(err) });
      }
      return;
    }
    try {
      scope.postMessage({ id: m.id, lines: matchingLines(m.bytes, program!, lineCap, maxWindow) });
    } catch (err) {
      scope.postMessage({ id: m.id, failed: text(err) });
    }
  };
}
