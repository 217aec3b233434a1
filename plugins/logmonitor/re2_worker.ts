/**
 * RE2 for regex search: re2-wasm's files, read and compiled on use (kept while searches come),
 * {@linkcode startRe2} (which a search runs on the host to check its pattern), and the code
 * of the worker of one regex search (started by `regex_worker.ts` from a blob URL, so that the
 * permission-scoped host needs no read access to the source tree, only to re2-wasm's package
 * folder, {@linkcode re2PackageDir}). The worker receives the compiled WebAssembly module and
 * re2-wasm's two scripts (its Emscripten loader and its `RE2` class), runs them with the module
 * handed to the loader (no file access, none of Node's compatibility layer in the worker),
 * compiles the client's pattern and answers each block of bytes with the indices of its
 * matching lines (`re2_lines.ts`).
 *
 * Messages in: `{type: "init", assets, pattern, ignoreCase, lineCap, maxWindow}`, then
 * `{id, shared, length}` (a block in a `SharedArrayBuffer`). Messages out: `{type: "ready"}`, `{type: "refused", message}` (RE2 refused the pattern) or
 * `{type: "unavailable", message}` (re2-wasm could not be started), then `{id, lines}` or
 * `{id, failed: message}` (RE2's WebAssembly memory ran out: the search cannot go on).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { Re2Program } from "./re2_lines.ts";

/** The files of re2-wasm a bundle carries beside it (`deno task bundle`: `dist/assets/re2-wasm/`). */
const BUNDLED_DIR = "./assets/re2-wasm/";

/** re2-wasm's package folder through the import map, or null (a bundle has no import map). */
function importMapDir(): string | null {
  let url: string;
  try {
    url = import.meta.resolve("re2-wasm");
  } catch {
    return null;
  }
  if (!url.startsWith("file:")) return null;
  return fileURLToPath(new URL("../..", url)); // build/src/re2.js → package root
}

/** The copy beside a bundle, when this module runs inside one and the copy is there. */
function bundledDir(): string | null {
  try {
    const dir = fileURLToPath(new URL(BUNDLED_DIR, import.meta.url));
    return Deno.statSync(`${dir}build/wasm/re2.wasm`).isFile ? dir : null;
  } catch {
    return null; // not a file: URL, or no copy
  }
}

/**
 * The folder of the re2-wasm package (its scripts and `re2.wasm`): the import map's, else the
 * copy beside a bundle; null when neither is on disk (regex search then answers 503).
 */
export function re2PackageDir(): string | null {
  return importMapDir() ?? bundledDir();
}

/** What a worker needs to run RE2. */
export interface Re2Assets {
  /** `build/wasm/re2.wasm`, compiled. */
  wasm: WebAssembly.Module;
  /** `build/wasm/re2.js`: the Emscripten loader and bindings. */
  loader: string;
  /** `build/src/re2.js`: the `RE2` class (JavaScript syntax translated to RE2's). */
  api: string;
}

let assets: Re2Assets | null = null;
let dropTimer: ReturnType<typeof setTimeout> | undefined;

/** How long re2-wasm's compiled module is kept after its last use (about 4 MB). */
export const RE2_IDLE_MS = 2000;

/**
 * embind copies a `Uint8Array` into RE2's memory one byte at a time in a JavaScript loop (about
 * 200 MB/s); one `HEAPU8.set` does the same copy (the memory never grows: fixed at 16 MiB).
 */
function fastCopy(loader: string): string {
  return loader.replace(
    /for \(var i = 0; i < length; \+\+i\) \{\s*HEAPU8\[ptr \+ 4 \+ i\] = value\[i\];\s*\}/,
    "HEAPU8.set(value, ptr + 4);",
  );
}

/**
 * re2-wasm's files, read and the module compiled on first use, then kept until
 * {@linkcode RE2_IDLE_MS} pass without a use (so that an idle host gives the memory back).
 *
 * @throws {Error} when the package cannot be read (e.g. a scope without its folder).
 */
export function re2Assets(): Re2Assets {
  clearTimeout(dropTimer);
  const timer = setTimeout(() => {
    assets = null;
    (globalThis as { gc?: () => void }).gc?.(); // where the host exposes it (the scoped host)
  }, RE2_IDLE_MS);
  Deno.unrefTimer(timer);
  dropTimer = timer;
  if (assets) return assets;
  const dir = re2PackageDir();
  if (dir === null) {
    throw new Error("re2-wasm is not on disk (neither installed nor beside a bundle)");
  }
  assets = {
    wasm: new WebAssembly.Module(Deno.readFileSync(`${dir}build/wasm/re2.wasm`)),
    loader: fastCopy(Deno.readTextFileSync(`${dir}build/wasm/re2.js`)),
    api: Deno.readTextFileSync(`${dir}build/src/re2.js`),
  };
  return assets;
}

type MatchingLines = (
  bytes: Uint8Array,
  program: Re2Program,
  lineCap: number,
  maxWindow: number,
) => number[];

/** re2-wasm's `RE2` class (the part used here). */
export type Re2Class = new (pattern: string, flags: string) => unknown;

/**
 * Runs re2-wasm's scripts with its compiled module (a fresh WebAssembly instance with its own
 * memory) and returns its `RE2` class. Self-contained: the worker runs its source text.
 */
export function startRe2(a: Re2Assets): Re2Class {
  const module: Record<string, unknown> = {
    // An abort (RE2's memory is full) throws with its message: nothing for the console.
    printErr() {},
    // Emscripten's hook: instantiate the module handed over instead of reading re2.wasm.
    instantiateWasm(imports: WebAssembly.Imports, receive: (i: WebAssembly.Instance) => void) {
      const instance = new WebAssembly.Instance(a.wasm, imports);
      receive(instance);
      return instance.exports;
    },
  };
  // `process`, `require` and `window` undefined: the loader takes its plain-shell path.
  const names = ["Module", "process", "require", "window", "importScripts", "print", "read"];
  new Function(...names, a.loader)(module);
  const exports: { RE2?: Re2Class } = {};
  new Function("exports", "require", a.api)(exports, () => module);
  return exports.RE2!;
}

/** The worker's main function (runs alone from its source text: only globals and arguments). */
export function re2WorkerMain(
  matchingLines: MatchingLines,
  startRe2: (a: Re2Assets) => Re2Class,
): void {
  const scope = globalThis as unknown as {
    onmessage: ((e: MessageEvent) => void) | null;
    postMessage(value: unknown): void;
  };
  let program: Re2Program | null = null;
  let lineCap = 8192;
  let maxWindow = 256 * 1024;
  const text = (err: unknown) => err instanceof Error ? err.message : `${err}`;
  scope.onmessage = (e) => {
    const m = e.data;
    if (m.type === "init") {
      let RE2;
      try {
        RE2 = startRe2(m.assets);
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
      const bytes = new Uint8Array(m.shared, 0, m.length);
      scope.postMessage({ id: m.id, lines: matchingLines(bytes, program!, lineCap, maxWindow) });
    } catch (err) {
      scope.postMessage({ id: m.id, failed: text(err) });
    }
  };
}
