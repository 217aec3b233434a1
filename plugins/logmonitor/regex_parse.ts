/**
 * A client's regular expression read as RE2 reads it (re2-wasm hands the JavaScript syntax to
 * RE2 almost unchanged, in multi-line mode), as a tree over bytes for the DFA prefilter
 * (`regex_dfa.ts`). The tree matches at least what RE2 matches on a line of UTF-8 (never less):
 * where the exact bytes would take much code (a character beyond ASCII under case folding, a
 * class with such characters, `\p{…}`, `\b`), it stands for more, and RE2 then tests each line
 * the prefilter lets through. On a line of ASCII bytes the tree stands for more only through
 * `\b`, `\B` and `\p{…}` (its `asciiExact` says whether the pattern has none). Syntax whose
 * reading is not certain (inline flags, POSIX classes, octal and other escapes, lookaround,
 * backreferences) gives `null`: the search then runs on RE2 alone.
 *
 * @module
 */

/** A node of the byte tree. */
export type ReNode =
  /** One byte of `bytes` (256 flags), or, when `other`, any character beyond ASCII. */
  | { t: "set"; bytes: Uint8Array; other: boolean }
  | { t: "seq"; items: ReNode[] }
  | { t: "alt"; items: ReNode[] }
  | { t: "rep"; node: ReNode; min: number; max: number }
  | { t: "bol" }
  | { t: "eol" };

/** A pattern read for the prefilter. */
export interface ParsedPattern {
  tree: ReNode;
  /** Whether the tree matches exactly what RE2 matches on lines of ASCII bytes. */
  asciiExact: boolean;
}

/** Largest repeat count RE2 accepts. */
const MAX_REPEAT = 1000;

const encoder = new TextEncoder();
const EMPTY: ReNode = { t: "seq", items: [] };

class Unsupported extends Error {}

/** A set of ASCII code points (and whether it holds characters beyond ASCII). */
interface CharSet {
  ascii: Uint8Array;
  other: boolean;
}

const newSet = (): CharSet => ({ ascii: new Uint8Array(256), other: false });
const addRange = (s: CharSet, lo: number, hi: number) => {
  for (let c = lo; c <= Math.min(hi, 0x7f); c++) s.ascii[c] = 1;
  if (hi > 0x7f) s.other = true;
};

/** RE2's Perl classes (ASCII only), as ranges. */
const PERL: Record<string, [number, number][]> = {
  d: [[0x30, 0x39]],
  w: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]],
  s: [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]],
};

/** Single-character escapes and their code points. */
const CONTROL: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

/**
 * The byte tree of `pattern` (JavaScript syntax, read as RE2 reads it), or null when some of its
 * syntax is not read here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseForDfa } from "./regex_parse.ts";
 * assert.equal(parseForDfa("[0-9]{7}", false)?.tree.t, "rep");
 * assert.equal(parseForDfa("\\bx", false)?.asciiExact, false);
 * assert.equal(parseForDfa("(?i)a", false), null);
 * ```
 */
export function parseForDfa(pattern: string, ignoreCase: boolean): ParsedPattern | null {
  const chars = [...pattern];
  let i = 0;
  let asciiExact = true;
  const peek = () => chars[i];
  /**
   * `s` under case folding: ASCII letters in both cases; a set holding k or s also holds the
   * Kelvin sign and the long s (beyond ASCII), and a set that may hold those two holds k, K, s
   * and S, unless it is to be negated (a negated set may then hold more than RE2's).
   */
  const fold = (s: CharSet, negated = false): CharSet => {
    if (!ignoreCase) return s;
    for (let c = 0x41; c <= 0x5a; c++) {
      if (s.ascii[c] || s.ascii[c + 32]) s.ascii[c] = s.ascii[c + 32] = 1;
    }
    const mayHoldBoth = s.other;
    if (s.ascii[0x6b] || s.ascii[0x73]) s.other = true;
    if (mayHoldBoth && !negated) {
      for (const c of [0x4b, 0x53, 0x6b, 0x73]) {
        if (!s.ascii[c]) asciiExact = false; // more than RE2 matches on ASCII lines
        s.ascii[c] = 1;
      }
    }
    return s;
  };
  const setNode = (s: CharSet): ReNode => ({ t: "set", bytes: s.ascii, other: s.other });
  /** A character beyond ASCII: its bytes, or (case folded) any such character and its ASCII forms. */
  const wide = (ch: string): ReNode => {
    if (!ignoreCase) return seqOfBytes(encoder.encode(ch));
    const s = newSet();
    s.other = true;
    // Its ASCII forms (the Kelvin sign's k, the long s's S), in both cases.
    for (const f of [ch.toLowerCase(), ch.toUpperCase()]) {
      if (f.length === 1 && f.charCodeAt(0) < 0x80) {
        s.ascii[f.toLowerCase().charCodeAt(0)] = s.ascii[f.toUpperCase().charCodeAt(0)] = 1;
      }
    }
    return setNode(s);
  };
  const hex = (n: number): number => {
    const digits = chars.slice(i, i + n).join("");
    if (digits.length !== n || !/^[0-9a-fA-F]+$/.test(digits)) throw new Unsupported();
    i += n;
    return parseInt(digits, 16);
  };
  /** After `\`: a code point, or a class name for \d \w \s and their negations. */
  const escape = (inClass: boolean): number | CharSet => {
    const c = chars[i++];
    if (c === undefined) throw new Unsupported();
    if (c in CONTROL) return CONTROL[c]!;
    const lower = c.toLowerCase();
    if (lower in PERL) {
      const s = newSet();
      for (const [lo, hi] of PERL[lower]!) addRange(s, lo, hi);
      return c === lower ? s : negate(s);
    }
    if (c === "p" || c === "P") {
      asciiExact = false;
      if (peek() === "{") {
        while (i < chars.length && chars[i] !== "}") i++;
        if (chars[i++] !== "}") throw new Unsupported();
      } else i++;
      return negate(newSet()); // any character: more than the class
    }
    if (c === "x") return hex(2);
    if (c === "u" && peek() !== "{") {
      const code = hex(4);
      if (code >= 0xd800 && code <= 0xdfff) throw new Unsupported(); // a surrogate
      return code;
    }
    if (c === "c" && /^[A-Z]$/.test(peek() ?? "")) return chars[i++]!.charCodeAt(0) - 64;
    if (!inClass && (c === "b" || c === "B")) {
      asciiExact = false;
      return -1;
    }
    if (/^[!-/:-@[-`{-~]$/.test(c)) return c.charCodeAt(0); // escaped punctuation
    throw new Unsupported();
  };
  const negate = (s: CharSet): CharSet => {
    const n = newSet();
    for (let c = 0; c < 0x80; c++) n.ascii[c] = s.ascii[c] ? 0 : 1;
    n.other = true;
    return n;
  };
  const charClass = (): ReNode => {
    const neg = peek() === "^";
    if (neg) i++;
    if (peek() === "]") throw new Unsupported(); // `[]` differs between JavaScript and RE2
    const s = newSet();
    const atom = (): number | CharSet => {
      const c = chars[i++];
      if (c === undefined || c === "[") throw new Unsupported();
      return c === "\\" ? escape(true) : c.codePointAt(0)!;
    };
    while (peek() !== "]") {
      const lo = atom();
      if (peek() === "-" && chars[i + 1] !== "]" && typeof lo === "number") {
        i++;
        const hi = atom();
        if (typeof hi !== "number" || hi < lo) throw new Unsupported();
        addRange(s, lo, hi);
      } else if (typeof lo === "number") addRange(s, lo, lo);
      else {
        for (let c = 0; c < 0x80; c++) if (lo.ascii[c]) s.ascii[c] = 1;
        s.other ||= lo.other;
      }
    }
    i++;
    return setNode(neg ? negate(fold(s, true)) : fold(s));
  };
  const atom = (): ReNode => {
    const c = chars[i++]!;
    if (c === "(") {
      if (peek() === "?") {
        if (chars[i + 1] === ":") i += 2;
        else if (chars[i + 1] === "<" && !"=!".includes(chars[i + 2] ?? "=")) {
          while (i < chars.length && chars[i] !== ">") i++;
          i++;
        } else throw new Unsupported();
      }
      const inner = alternation();
      if (chars[i++] !== ")") throw new Unsupported();
      return inner;
    }
    if (c === "[") return charClass();
    if (c === ".") {
      const s = newSet();
      addRange(s, 0, 0x7f);
      s.ascii[10] = 0;
      s.other = true;
      return setNode(s);
    }
    if (c === "^") return { t: "bol" };
    if (c === "$") return { t: "eol" };
    if (c === ")" || c === "|" || "*+?{".includes(c)) throw new Unsupported();
    const code = c === "\\" ? escape(false) : c.codePointAt(0)!;
    if (code === -1) return EMPTY; // \b, \B: the prefilter lets more through
    if (typeof code !== "number") return setNode(fold(code));
    if (code >= 0x80) return wide(String.fromCodePoint(code));
    const s = newSet();
    s.ascii[code] = 1;
    return setNode(fold(s));
  };
  const quantified = (): ReNode => {
    const node = atom();
    const q = peek();
    let min: number;
    let max: number;
    if (q === "*") [min, max] = [0, Infinity];
    else if (q === "+") [min, max] = [1, Infinity];
    else if (q === "?") [min, max] = [0, 1];
    else if (q === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(i, i + 12).join(""));
      if (!m) throw new Unsupported();
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT) || max < min) {
        throw new Unsupported();
      }
      i += m[0].length - 1;
    } else return node;
    i++;
    if (peek() === "?") i++; // lazy: the same lines match
    if (peek() !== undefined && "*+?{".includes(peek()!)) throw new Unsupported();
    if (node.t === "bol" || node.t === "eol") throw new Unsupported();
    return { t: "rep", node, min, max };
  };
  const sequence = (): ReNode => {
    const items: ReNode[] = [];
    while (i < chars.length && peek() !== "|" && peek() !== ")") items.push(quantified());
    return items.length === 1 ? items[0]! : { t: "seq", items };
  };
  const alternation = (): ReNode => {
    const items = [sequence()];
    while (peek() === "|") {
      i++;
      items.push(sequence());
    }
    return items.length === 1 ? items[0]! : { t: "alt", items };
  };
  try {
    const tree = alternation();
    return i === chars.length ? { tree, asciiExact } : null;
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

function seqOfBytes(bytes: Uint8Array): ReNode {
  return {
    t: "seq",
    items: [...bytes].map((b) => {
      const set = new Uint8Array(256);
      set[b] = 1;
      return { t: "set", bytes: set, other: false } as ReNode;
    }),
  };
}
