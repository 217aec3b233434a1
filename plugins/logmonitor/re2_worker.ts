/**
 * The worker of one regex search (started by `regex_worker.ts`): compiles the client's pattern
 * with RE2 (npm `re2-wasm`, linear time: no pattern backtracks) and answers each block of bytes
 * with the indices of its matching lines (`re2_lines.ts`).
 *
 * Messages in: `{type: "init", pattern, ignoreCase, lineCap}`, then `{id, bytes}`.
 * Messages out: `{type: "ready"}` or `{type: "refused", message}`, then `{id, lines}` or
 * `{id, failed: message}` (RE2's WebAssembly memory ran out: the search cannot go on).
 *
 * @module
 */
import { RE2 } from "re2-wasm";
import { matchingLines, type Re2Program } from "./re2_lines.ts";

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(value: unknown): void;
};

let program: Re2Program | null = null;
let lineCap = 8192;

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === "init") {
    try {
      // "u": RE2 reads UTF-8; "m": `^` and `$` match at line breaks inside a block.
      const re = new RE2(m.pattern, `u${m.ignoreCase ? "i" : ""}m`);
      // The compiled program behind the RegExp-like class: it takes bytes as well as strings.
      program = (re as unknown as { wrapper: Re2Program }).wrapper;
      lineCap = m.lineCap;
      scope.postMessage({ type: "ready" });
    } catch (err) {
      scope.postMessage({
        type: "refused",
        message: err instanceof Error ? err.message : `${err}`,
      });
    }
    return;
  }
  try {
    scope.postMessage({ id: m.id, lines: matchingLines(m.bytes, program!, lineCap) });
  } catch (err) {
    scope.postMessage({ id: m.id, failed: err instanceof Error ? err.message : `${err}` });
  }
};
