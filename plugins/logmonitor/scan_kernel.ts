/**
 * The JS side of the byte-search kernel: its memory, needles and a pool of finders. The kernel
 * itself, a SIMD substring search (exact or ASCII case-folded, 16 positions per step), is the
 * WebAssembly text `scan_kernel.wat`, compiled by `deno task build` into the committed
 * `scan_kernel.wasm.gen.ts` imported here (no read permission, no wabt at run time).
 *
 * Layout of the shared memory: the needles at offset 0 (at most {@linkcode MAX_NEEDLE} bytes),
 * the haystack from {@linkcode HAY_OFFSET}; at least {@linkcode PAD} bytes after the haystack
 * must be readable (they are never matched); then room for a regex prefilter's table
 * (`regex_dfa.ts`, 1 KiB per state; pages never written take no memory).
 *
 * @module
 */
import { wasm } from "./scan_kernel.wasm.gen.ts";
import { MAX_DFA_STATES } from "./regex_dfa.ts";

/** Largest needle in bytes. */
export const MAX_NEEDLE = 4096;
/** Where the haystack area starts. */
export const HAY_OFFSET = MAX_NEEDLE;
/** Readable bytes needed after the haystack's end (a 16-byte load at end + needle length). */
export const PAD = 16 + MAX_NEEDLE;

let compiled: WebAssembly.Module | undefined;
/** The compiled kernel (compiled once per process, on first use). */
const kernelModule = () => compiled ??= new WebAssembly.Module(wasm);

const PAGE = 65536;

type FindFn = (start: number, end: number, needle: number, m: number, fold: number) => number;
type DfaFn = (start: number, end: number, startRow: number, cap: number) => number;

/**
 * How needles compare: exactly, with ASCII letters folded, or with bit 0x20 of every byte
 * folded (`"bit5"`: case forms beyond ASCII that differ only there, and more; test the lines).
 */
export type Fold = boolean | "bit5";

/** Bytes of one automaton state's row. */
const ROW = 256 * 4;
/**
 * A haystack buffer in WebAssembly memory and the search over it for one or more needles.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteFinder } from "./scan_kernel.ts";
 * const f = new ByteFinder(1024);
 * const n = new TextEncoder().encodeInto("say Hello", f.hay).written;
 * f.setNeedles([new TextEncoder().encode("hello")], true);
 * assert.equal(f.find(0, n), 4);
 * ```
 */
export class ByteFinder {
  /** The haystack area (its length is the capacity given to the constructor). */
  readonly hay: Uint8Array;
  #memory: WebAssembly.Memory;
  #find: FindFn;
  #dfa: DfaFn;
  #needles: { at: number; length: number }[] = [];
  #fold = 0;
  /** Where the automaton's table starts. */
  #tableAt: number;

  constructor(capacity: number) {
    this.#tableAt = Math.ceil((HAY_OFFSET + capacity + PAD) / ROW) * ROW;
    const pages = Math.ceil((this.#tableAt + MAX_DFA_STATES * ROW) / PAGE);
    this.#memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const instance = new WebAssembly.Instance(kernelModule(), { env: { mem: this.#memory } });
    this.#find = instance.exports.find as FindFn;
    this.#dfa = instance.exports.dfa as DfaFn;
    this.hay = new Uint8Array(this.#memory.buffer, HAY_OFFSET, capacity);
  }

  /**
   * Sets the automaton {@linkcode runDfa} runs: `table` as built by `regex_dfa.ts` (256
   * entries per state, state 0 first; an entry is a state or a negative special value).
   */
  setDfa(table: Int32Array): void {
    if (table.length > MAX_DFA_STATES * 256) throw new RangeError("Automaton too large");
    const area = new Int32Array(this.#memory.buffer, this.#tableAt, table.length);
    for (let k = 0; k < table.length; k++) {
      const x = table[k]!;
      area[k] = x < 0 ? x : this.#tableAt + x * ROW;
    }
  }

  /**
   * The position in `[start, end)` of the haystack (`start` a line start) of a byte where the
   * automaton finds its line a candidate (a line longer than `lineCap` bytes always is), or -1.
   */
  runDfa(start: number, end: number, lineCap: number): number {
    const at = this.#dfa(HAY_OFFSET + start, HAY_OFFSET + end, this.#tableAt, lineCap);
    return at < 0 ? -1 : at - HAY_OFFSET;
  }

  /** Sets the needles (together at most {@linkcode MAX_NEEDLE} bytes) and how they compare. */
  setNeedles(needles: Uint8Array[], foldCase: Fold): void {
    const total = needles.reduce((n, x) => n + x.length, 0);
    if (needles.some((x) => x.length === 0) || total > MAX_NEEDLE) {
      throw new RangeError(`Cannot search for needles of ${total} bytes`);
    }
    const area = new Uint8Array(this.#memory.buffer, 0, MAX_NEEDLE);
    const fold = foldCase === "bit5" ? (b: number) => b | 0x20 : foldCase ? lowerAscii : null;
    let at = 0;
    this.#needles = needles.map((x) => {
      for (let i = 0; i < x.length; i++) area[at + i] = fold ? fold(x[i]!) : x[i]!;
      at += x.length;
      return { at: at - x.length, length: x.length };
    });
    this.#fold = foldCase === "bit5" ? 2 : foldCase ? 1 : 0;
  }

  /** The first position in `[start, end)` of the haystack where needle `k` starts, or -1. */
  find(start: number, end: number, k = 0): number {
    const n = this.#needles[k]!;
    const at = this.#find(HAY_OFFSET + start, HAY_OFFSET + end, n.at, n.length, this.#fold);
    return at < 0 ? -1 : at - HAY_OFFSET;
  }
}

/** An ASCII upper-case letter's lower-case byte; any other byte unchanged. */
export function lowerAscii(b: number): number {
  return b >= 65 && b <= 90 ? b | 0x20 : b;
}

const idle: ByteFinder[] = [];
/** Idle finders kept for reuse (their memory is not given back between searches). */
export const MAX_IDLE_FINDERS = 2;
/** How long idle finders are kept after the last search (then their memory goes back). */
export const FINDER_IDLE_MS = 2000;
let dropTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * A finder with at least `capacity` bytes of haystack, reused when one is idle: searches in a
 * row do not allocate (and leave for the collector) megabytes of WebAssembly memory each time.
 */
export function acquireFinder(capacity: number): ByteFinder {
  const i = idle.findIndex((f) => f.hay.length >= capacity);
  return i >= 0 ? idle.splice(i, 1)[0]! : new ByteFinder(capacity);
}

/**
 * Gives a finder back after its search. Idle finders are dropped {@linkcode FINDER_IDLE_MS}
 * after the last one came back, and the collector is run where the host exposes it (the scoped
 * host does), so that an idle host returns to its size before the searches.
 */
export function releaseFinder(finder: ByteFinder): void {
  if (idle.length < MAX_IDLE_FINDERS) idle.push(finder);
  clearTimeout(dropTimer);
  const timer = setTimeout(() => {
    idle.length = 0;
    (globalThis as { gc?: () => void }).gc?.();
  }, FINDER_IDLE_MS);
  Deno.unrefTimer(timer);
  dropTimer = timer;
}
