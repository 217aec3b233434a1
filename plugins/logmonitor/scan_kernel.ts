/**
 * A byte-search kernel in WebAssembly with 128-bit SIMD, built at load time from the
 * instructions below (no binary blob, no build step). It finds a needle in raw file bytes,
 * exactly or with ASCII letters folded to lower case, 16 candidate positions per step: the
 * first and last needle bytes are compared at once and only positions where both match are
 * checked byte by byte (the "generic SIMD" substring search).
 *
 * Layout of the shared memory: the needle at offset 0 (at most {@linkcode MAX_NEEDLE} bytes),
 * the haystack from {@linkcode HAY_OFFSET}; at least {@linkcode PAD} bytes after the haystack
 * must be readable (they are never matched).
 *
 * @module
 */

/** Largest needle in bytes. */
export const MAX_NEEDLE = 4096;
/** Where the haystack area starts. */
export const HAY_OFFSET = MAX_NEEDLE;
/** Readable bytes needed after the haystack's end (a 16-byte load at end + needle length). */
export const PAD = 16 + MAX_NEEDLE;

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};
const sleb = (n: number): number[] => {
  const out: number[] = [];
  while (true) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};
const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const str = (s: string): number[] => vec([...s].map((c) => [c.charCodeAt(0)]));

// Opcodes.
const I32 = 0x7f;
const V128 = 0x7b;
const get = (i: number) => [0x20, ...leb(i)];
const set = (i: number) => [0x21, ...leb(i)];
const tee = (i: number) => [0x22, ...leb(i)];
const c32 = (n: number) => [0x41, ...sleb(n)];
const simd = (op: number, ...imm: number[]) => [0xfd, ...leb(op), ...imm];
const V_LOAD = simd(0x00, 0, 0);
const SPLAT8 = simd(0x0f);
const EQ8 = simd(0x23);
const LE_U8 = simd(0x2a);
const AND = simd(0x4e);
const OR = simd(0x50);
const SUB8 = simd(0x71);
const BITMASK8 = simd(0x64);
const [BLOCK, LOOP, IF, END, BR, BR_IF, RETURN] = [0x02, 0x03, 0x04, 0x0b, 0x0c, 0x0d, 0x0f];
const VOID = 0x40;
const [ADD, SUBI, ANDI, ORI, XOR, SHL, CTZ] = [0x6a, 0x6b, 0x71, 0x72, 0x73, 0x74, 0x68];
const [EQZ, NE, GT_S, LT_U] = [0x45, 0x47, 0x4a, 0x49];
const LOAD8_U = [0x2d, 0, 0];

// find(start, end, needle, m, fold) -> position or -1.
// Params 0..4; locals: 5 i, 6 mask, 7 p, 8 j, 9 a, 10 b (i32); 11 first, 12 last, 13 va, 14 vb,
// 15 A, 16 n26, 17 x20 (v128).
const [START, END_, NEEDLE, M, FOLD, I, MASK, P, J, A8, B8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const [FIRST, LAST, VA, VB, CAPA, N26, X20] = [11, 12, 13, 14, 15, 16, 17];

/** lower(v) = v | ((v - 'A') <=u 25 ? 0x20 : 0) for a v128 on the stack top stored in `slot`. */
const foldV = (slot: number) => [
  ...get(FOLD),
  IF,
  VOID,
  ...get(slot),
  ...get(slot),
  ...get(CAPA),
  ...SUB8,
  ...get(N26),
  ...LE_U8,
  ...get(X20),
  ...AND,
  ...OR,
  ...set(slot),
  END,
];
/** Scalar fold of the i32 in `slot` (when `fold`). */
const foldB = (slot: number) => [
  ...get(FOLD),
  IF,
  VOID,
  ...get(slot),
  ...get(slot),
  ...c32(65),
  SUBI,
  ...c32(26),
  LT_U,
  ...c32(5),
  SHL,
  ORI,
  ...set(slot),
  END,
];

const findBody = [
  // first/last needle bytes (already folded by the caller), splatted
  ...get(NEEDLE),
  ...LOAD8_U,
  ...SPLAT8,
  ...set(FIRST),
  ...get(NEEDLE),
  ...get(M),
  ADD,
  ...c32(1),
  SUBI,
  ...LOAD8_U,
  ...SPLAT8,
  ...set(LAST),
  ...c32(65),
  ...SPLAT8,
  ...set(CAPA),
  ...c32(25),
  ...SPLAT8,
  ...set(N26),
  ...c32(0x20),
  ...SPLAT8,
  ...set(X20),
  ...get(START),
  ...set(I),
  BLOCK,
  VOID,
  LOOP,
  VOID,
  // while (i + m <= end)
  ...get(I),
  ...get(M),
  ADD,
  ...get(END_),
  GT_S,
  BR_IF,
  1,
  ...get(I),
  ...V_LOAD,
  ...set(VA),
  ...foldV(VA),
  ...get(I),
  ...get(M),
  ADD,
  ...c32(1),
  SUBI,
  ...V_LOAD,
  ...set(VB),
  ...foldV(VB),
  ...get(VA),
  ...get(FIRST),
  ...EQ8,
  ...get(VB),
  ...get(LAST),
  ...EQ8,
  ...AND,
  ...BITMASK8,
  ...set(MASK),
  BLOCK,
  VOID,
  LOOP,
  VOID,
  ...get(MASK),
  EQZ,
  BR_IF,
  1,
  ...get(I),
  ...get(MASK),
  CTZ,
  ADD,
  ...tee(P),
  ...get(M),
  ADD,
  ...get(END_),
  GT_S,
  IF,
  VOID,
  ...c32(-1),
  RETURN,
  END,
  // verify bytes 1..m-2
  ...c32(1),
  ...set(J),
  BLOCK,
  VOID,
  LOOP,
  VOID,
  ...get(J),
  ...get(M),
  ...c32(1),
  SUBI,
  0x4e, // i32.ge_s
  IF,
  VOID,
  ...get(P),
  RETURN,
  END,
  ...get(P),
  ...get(J),
  ADD,
  ...LOAD8_U,
  ...set(A8),
  ...foldB(A8),
  ...get(NEEDLE),
  ...get(J),
  ADD,
  ...LOAD8_U,
  ...set(B8),
  ...get(A8),
  ...get(B8),
  NE,
  BR_IF,
  1,
  ...get(J),
  ...c32(1),
  ADD,
  ...set(J),
  BR,
  0,
  END,
  END,
  // mask &= mask - 1
  ...get(MASK),
  ...get(MASK),
  ...c32(1),
  SUBI,
  ANDI,
  ...set(MASK),
  BR,
  0,
  END,
  END,
  ...get(I),
  ...c32(16),
  ADD,
  ...set(I),
  BR,
  0,
  END,
  END,
  ...c32(-1),
];
void XOR;

const fn = (locals: [number, number][], body: number[]) => {
  const b = [...vec(locals.map(([n, t]) => [...leb(n), t])), ...body, END];
  return [...leb(b.length), ...b];
};

const BYTES = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([[I32]])]])),
  ...section(2, vec([[...str("env"), ...str("mem"), 0x02, 0x00, ...leb(1)]])),
  ...section(3, vec([[0]])),
  ...section(7, vec([[...str("find"), 0x00, 0]])),
  ...section(10, vec([fn([[6, I32], [7, V128]], findBody)])),
]);

let compiled: WebAssembly.Module | null = null;

/** The compiled kernel (compiled once per process). */
export function kernelModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(BYTES);
  return compiled;
}

const PAGE = 65536;

type FindFn = (start: number, end: number, needle: number, m: number, fold: number) => number;

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
  #needles: { at: number; length: number }[] = [];
  #fold = 0;

  constructor(capacity: number) {
    const pages = Math.ceil((HAY_OFFSET + capacity + PAD) / PAGE);
    this.#memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const instance = new WebAssembly.Instance(kernelModule(), { env: { mem: this.#memory } });
    this.#find = instance.exports.find as FindFn;
    this.hay = new Uint8Array(this.#memory.buffer, HAY_OFFSET, capacity);
  }

  /** Sets the needles (together at most {@linkcode MAX_NEEDLE} bytes); `foldCase` folds ASCII. */
  setNeedles(needles: Uint8Array[], foldCase: boolean): void {
    const total = needles.reduce((n, x) => n + x.length, 0);
    if (needles.some((x) => x.length === 0) || total > MAX_NEEDLE) {
      throw new RangeError(`Cannot search for needles of ${total} bytes`);
    }
    const area = new Uint8Array(this.#memory.buffer, 0, MAX_NEEDLE);
    let at = 0;
    this.#needles = needles.map((x) => {
      for (let i = 0; i < x.length; i++) area[at + i] = foldCase ? lowerAscii(x[i]!) : x[i]!;
      at += x.length;
      return { at: at - x.length, length: x.length };
    });
    this.#fold = foldCase ? 1 : 0;
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

/**
 * A finder with at least `capacity` bytes of haystack, reused when one is idle: searches do not
 * allocate (and leave for the collector) megabytes of WebAssembly memory each time.
 */
export function acquireFinder(capacity: number): ByteFinder {
  const i = idle.findIndex((f) => f.hay.length >= capacity);
  return i >= 0 ? idle.splice(i, 1)[0]! : new ByteFinder(capacity);
}

/** Gives a finder back after its search. */
export function releaseFinder(finder: ByteFinder): void {
  if (idle.length < MAX_IDLE_FINDERS) idle.push(finder);
}
