/**
 * The DFA prefilter of regex search: the byte tree of a pattern (`regex_parse.ts`) as a
 * deterministic automaton over the bytes of one line, searched anywhere in the line (as RE2
 * searches), built whole ahead of the scan (subset construction over a Thompson NFA) and run
 * by the byte kernel (`scan_kernel.wat`, `dfa`) at one table lookup per byte. A line the
 * automaton accepts is a candidate that RE2 then tests; the automaton accepts every line RE2
 * would match (its tree may stand for more), so no match is lost. Patterns whose automaton
 * would be large give `null` (RE2 alone then scans); the build pauses every few ms so that
 * the host's other requests are answered meanwhile.
 *
 * The table has 256 entries per state (state 0 is the start of a line): the next state, or
 * {@linkcode DFA_MATCH} (the line is a candidate; also on a CR or LF ending a line that `$`
 * accepts), or {@linkcode DFA_EOL} (an LF ending a line that does not match).
 *
 * @module
 */
import { parseForDfa, type ReNode } from "./regex_parse.ts";

/** Table entry: the line holding this byte is a candidate. */
export const DFA_MATCH = -1;
/** Table entry: a line ends (LF) without a match. */
export const DFA_EOL = -2;
/** Most states of an automaton. */
export const MAX_DFA_STATES = 512;
/** Most NFA states a pattern may compile to. */
const MAX_NFA = 20_000;
/**
 * Most NFA states visited while building: a pattern whose automaton would
 * take longer gives up after some tens of ms of the host's time.
 */
const MAX_STEPS = 400_000;

const BYTE = 0, SPLIT = 1, BOL = 2, EOL = 3, MATCH = 4;
const LF = 0x0a;
const CR = 0x0d;

class TooLarge extends Error {}

/**
 * Whether the automaton accepts one line (`line`: its characters, without LF or trailing CR).
 * Meant for a line of ASCII characters, which it then decides exactly when `asciiExact`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildDfa, dfaAccepts } from "./regex_dfa.ts";
 * const dfa = (await buildDfa("^a[0-9]+$", false))!;
 * assert.ok(dfaAccepts(dfa, "a12") && !dfaAccepts(dfa, "a12b"));
 * ```
 */
export function dfaAccepts(dfa: Dfa, line: string): boolean {
  let s = 0;
  for (let i = 0; i < line.length; i++) {
    const x = dfa.table[s * 256 + (line.charCodeAt(i) & 0xff)]!;
    if (x === DFA_MATCH) return true;
    if (x < 0) return false; // an LF inside: not a line
    s = x;
  }
  return dfa.table[s * 256 + LF] === DFA_MATCH;
}

/** A built automaton. */
export interface Dfa {
  /** `states * 256` entries. */
  table: Int32Array;
  states: number;
  /**
   * Whether a line of ASCII bytes (none >= 0x80, no CR before its end), at most 8 KiB long,
   * is a candidate exactly when RE2 matches it (`ParsedPattern.asciiExact`).
   */
  asciiExact: boolean;
}

/**
 * The prefilter automaton of a regex, or null (syntax not read by `regex_parse.ts`, a pattern
 * that matches every line, or more than {@linkcode MAX_DFA_STATES} states).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildDfa } from "./regex_dfa.ts";
 * const dfa = (await buildDfa("[0-9]{3}", false))!;
 * assert.equal(dfa.states, 3); // 0, 1 or 2 digits seen
 * ```
 */
export async function buildDfa(pattern: string, ignoreCase: boolean): Promise<Dfa | null> {
  const parsed = parseForDfa(pattern, ignoreCase);
  if (parsed === null) return null;
  try {
    const steps = subsets(compileNfa(parsed.tree));
    while (true) {
      const r = steps.next();
      if (r.done) return r.value && { ...r.value, asciiExact: parsed.asciiExact };
      await new Promise((resolve) => setTimeout(resolve, 0)); // other requests go on
    }
  } catch (err) {
    if (err instanceof TooLarge) return null;
    throw err;
  }
}

interface Nfa {
  kind: number[];
  set: (Uint8Array | null)[];
  out: number[];
  out2: number[];
  start: number;
}

const HIGH = (() => {
  const s = new Uint8Array(256);
  s.fill(1, 0x80);
  return s;
})();

function compileNfa(tree: ReNode): Nfa {
  const nfa: Nfa = { kind: [], set: [], out: [], out2: [], start: 0 };
  const add = (kind: number, set: Uint8Array | null, out: number, out2 = -1) => {
    if (nfa.kind.length >= MAX_NFA) throw new TooLarge();
    nfa.kind.push(kind);
    nfa.set.push(set);
    nfa.out.push(out);
    nfa.out2.push(out2);
    return nfa.kind.length - 1;
  };
  /** A state matching `node` then going on to `next`. */
  const build = (node: ReNode, next: number): number => {
    switch (node.t) {
      case "set": {
        const ascii = add(BYTE, node.bytes, next);
        if (!node.other) return ascii;
        // Any character beyond ASCII: a run of bytes >= 0x80 (valid or not).
        const loop = add(SPLIT, null, -1, next);
        const high = add(BYTE, HIGH, loop);
        nfa.out[loop] = high;
        return add(SPLIT, null, ascii, high);
      }
      case "seq":
        return node.items.reduceRight((to, item) => build(item, to), next);
      case "alt":
        return node.items.map((item) => build(item, next)).reduce((a, b) => add(SPLIT, null, a, b));
      case "bol":
        return add(BOL, null, next);
      case "eol":
        return add(EOL, null, next);
      case "rep": {
        let tail = next;
        if (node.max === Infinity) {
          const loop = add(SPLIT, null, -1, next);
          nfa.out[loop] = build(node.node, loop);
          tail = loop;
        } else {
          for (let k = node.min; k < node.max; k++) {
            tail = add(SPLIT, null, build(node.node, tail), next);
          }
        }
        for (let k = 0; k < node.min; k++) tail = build(node.node, tail);
        return tail;
      }
    }
  };
  nfa.start = build(tree, add(MATCH, null, -1));
  return nfa;
}

/** Steps of work between two pauses of {@linkcode subsets} (a few ms). */
const SLICE = 20_000;

/** Builds the automaton, pausing (`yield`) every {@linkcode SLICE} steps or so. */
function* subsets(nfa: Nfa): Generator<void, Omit<Dfa, "asciiExact"> | null> {
  const n = nfa.kind.length;
  const seen = new Int32Array(n);
  let mark = 0;
  let steps = 0;
  let paused = 0;
  const stack = new Int32Array(4 * n + 4); // `from` (at most 2n) and two per split
  const found = new Int32Array(n);
  /** The byte, `$` and match states reached from `from` without a byte (sorted). */
  const closure = (from: number[], atBol: boolean, atEol: boolean): number[] => {
    mark++;
    let top = 0;
    let count = 0;
    for (const s of from) stack[top++] = s;
    while (top > 0) {
      const s = stack[--top]!;
      if (++steps > MAX_STEPS) throw new TooLarge();
      if (s < 0 || seen[s] === mark) continue;
      seen[s] = mark;
      const k = nfa.kind[s]!;
      if (k === SPLIT) {
        stack[top++] = nfa.out[s]!;
        stack[top++] = nfa.out2[s]!;
      } else if (k === BOL) {
        if (atBol) stack[top++] = nfa.out[s]!;
      } else if (k === EOL && atEol) stack[top++] = nfa.out[s]!;
      else found[count++] = s;
    }
    return Array.from(found.subarray(0, count).sort());
  };
  const hasMatch = (set: number[]) => set.some((s) => nfa.kind[s] === MATCH);
  const first = closure([nfa.start], true, false);
  if (hasMatch(first)) return null; // every line matches
  const mid = closure([nfa.start], false, false);
  // Byte classes: bytes that every byte state treats alike.
  const classOf = new Int32Array(256);
  const reps: number[] = [];
  {
    const sig = new Map<string, number>();
    // Repeats share their sets: the distinct ones decide.
    const sets = [...new Set(nfa.set.filter((x) => x !== null))];
    for (let b = 0; b < 256; b++) {
      const key = sets.map((x) => x[b]).join("") + (b === LF ? "n" : b === CR ? "r" : "");
      if (!sig.has(key)) {
        sig.set(key, reps.length);
        reps.push(b);
      }
      classOf[b] = sig.get(key)!;
    }
  }
  const states: number[][] = [first];
  const ids = new Map<string, number>([[first.join(","), 0]]);
  const rows: Int32Array[] = [];
  for (let id = 0; id < states.length; id++) {
    const set = states[id]!;
    const eolAccept = set.some((s) => nfa.kind[s] === EOL) &&
      hasMatch(closure(set.filter((s) => nfa.kind[s] === EOL), true, true));
    const byClass: number[] = [];
    for (const b of reps) {
      if (steps - paused > SLICE) {
        paused = steps;
        yield;
      }
      const moved = set.filter((s) => nfa.kind[s] === BYTE && nfa.set[s]![b]).map((s) =>
        nfa.out[s]!
      );
      const next = closure([...moved, ...mid], false, false);
      if (hasMatch(next)) {
        byClass.push(DFA_MATCH);
        continue;
      }
      const key = next.join(",");
      let to = ids.get(key);
      if (to === undefined) {
        if (states.length >= MAX_DFA_STATES) throw new TooLarge();
        to = states.length;
        states.push(next);
        ids.set(key, to);
      }
      byClass.push(to);
    }
    const row = new Int32Array(256);
    for (let b = 0; b < 256; b++) row[b] = byClass[classOf[b]!]!;
    row[LF] = eolAccept ? DFA_MATCH : DFA_EOL;
    if (eolAccept) row[CR] = DFA_MATCH;
    rows.push(row);
  }
  const table = new Int32Array(rows.length * 256);
  rows.forEach((row, k) => table.set(row, k * 256));
  return { table, states: rows.length };
}
