/**
 * The byte-level scan behind log search. The file is read in growing blocks (64 KiB up to
 * 4 MiB) into WebAssembly memory and searched there as raw bytes; only the lines that can match
 * are decoded. Candidate lines come from a needle search (the query, a regex's required
 * literal, or the level words), from a regex's prefilter automaton (`regex_dfa.ts`) whose
 * candidates a matcher of raw lines then tests, from such a matcher alone, or are every line.
 * Each candidate line is mapped to its entry (see `entries.ts`), the entry's level is checked,
 * entries are counted once, and the scan stops at `offset + limit + 1` matches. Memory stays
 * bounded: one block plus the context of the entry that may continue into the next block.
 *
 * @module
 */
import { entryFromLines, MAX_ENTRY_BYTES, quickLevel, startsEntryAt } from "./entries.ts";
import { type Level, type ParsedLine, parseLine } from "./parse.ts";
import { acquireFinder, type ByteFinder, type Fold, releaseFinder } from "./scan_kernel.ts";

/** How candidate lines are found. */
export type Candidates =
  | { kind: "every" }
  | {
    kind: "needles";
    /** Lines holding any of these byte strings are candidates. */
    needles: Uint8Array[];
    /** Fold ASCII letters (true), or bit 0x20 of every byte (`"bit5"`, with `verify`). */
    fold: Fold;
    /** Keeps the candidates (by index) that really match, e.g. a regex test. */
    verify?: (lines: string[]) => Promise<number[]>;
  }
  | {
    kind: "dfa";
    /** The automaton (`regex_dfa.ts`): lines it accepts are candidates. */
    table: Int32Array;
    /** Lines longer than this are candidates whatever the automaton says (`match` cuts them). */
    lineCap: number;
    /**
     * Whether the automaton decides lines of ASCII bytes alone (`Dfa.asciiExact`): such a
     * candidate (no byte >= 0x80, no CR before its end, at most `lineCap` bytes) matches
     * without `match`.
     */
    asciiExact: boolean;
    /** Indices of the matching lines of a block of whole lines (candidates, each ending in LF). */
    match: (bytes: Uint8Array) => Promise<number[]>;
  }
  | {
    kind: "lines";
    /** Indices of the matching lines of a block of whole lines (a view valid until it resolves). */
    match: (bytes: Uint8Array) => Promise<number[]>;
  };

/** What to scan for. */
export interface ScanPlan {
  candidates: Candidates;
  /** Allowed entry levels; null allows all. */
  levels: ReadonlySet<Level> | null;
  offset: number;
  limit: number;
}

/** Options of {@linkcode scanFile}. */
export interface ScanOptions {
  /** Largest block read at once. @default 4 MiB */
  blockSize?: number;
  /** First block read (doubled up to `blockSize`). @default 64 KiB */
  firstBlock?: number;
}

/** Matches of a scan. */
export interface ScanResult {
  results: ParsedLine[];
  /** Matching entries seen before the scan stopped (at most `offset + limit + 1`). */
  total: number;
}

const NL = 0x0a;
const CR = 0x0d;
const NONE = -1;
const decoder = new TextDecoder("utf-8", { fatal: false });

function decodeLine(hay: Uint8Array, start: number, end: number): string {
  const s = decoder.decode(hay.subarray(start, end));
  return s.endsWith("\r") ? s.slice(0, -1) : s;
}

/** Scans an open file from its current position. */
export async function scanFile(
  file: Deno.FsFile,
  plan: ScanPlan,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const blockSize = options.blockSize ?? 4 * 1024 * 1024;
  const capacity = MAX_ENTRY_BYTES + blockSize;
  const finder = acquireFinder(capacity + 1);
  try {
    return await scanWith(finder, capacity, file, plan, options);
  } finally {
    releaseFinder(finder);
  }
}

async function scanWith(
  finder: ByteFinder,
  capacity: number,
  file: Deno.FsFile,
  plan: ScanPlan,
  options: ScanOptions,
): Promise<ScanResult> {
  const blockSize = options.blockSize ?? 4 * 1024 * 1024;
  const hay = finder.hay;
  const { candidates, levels } = plan;
  if (candidates.kind === "needles") finder.setNeedles(candidates.needles, candidates.fold);
  if (candidates.kind === "dfa") finder.setDfa(candidates.table);
  const stopAt = plan.offset + plan.limit + 1;
  const results: ParsedLine[] = [];
  let count = 0;
  let base = 0;
  let len = 0;
  let done = 0;
  let eof = false;
  let skipping = false;
  let readSize = options.firstBlock ?? 64 * 1024;
  let lastEntry = NONE; // absolute start of the last entry evaluated
  let cache = { at: NONE, ts: NONE }; // absolute: nearest entry start <= `at`

  /** Start of the line holding position `p`. */
  const lineStartOf = (p: number): number => p <= 0 ? 0 : hay.lastIndexOf(NL, p - 1) + 1;
  /** Start of the line after the one holding `p`, at most `end`. */
  const lineAfter = (p: number, end: number): number => {
    const nl = hay.indexOf(NL, p);
    return nl < 0 || nl >= end ? end : nl + 1;
  };
  /** `end` without the newline that ends the last line. */
  const textEnd = (end: number): number => end > 0 && hay[end - 1] === NL ? end - 1 : end;
  /** Nearest timestamped line start <= line start `q` within reach, or NONE. */
  const nearestTs = (q: number): number => {
    let l = q;
    while (true) {
      if (base + l === cache.at) return cache.ts < base ? NONE : cache.ts - base;
      if (l < len && startsEntryAt(hay, l)) return l;
      if (l === 0 || q - l >= MAX_ENTRY_BYTES) return NONE;
      l = lineStartOf(l - 1);
    }
  };
  const entryStartOf = (q: number): number => {
    const ts = nearestTs(q);
    cache = { at: base + q, ts: ts === NONE ? NONE : base + ts };
    return ts !== NONE && q - ts < MAX_ENTRY_BYTES ? ts : q;
  };
  /** End of the entry starting at `s` within `[s, end)`; `end` when it may go on. */
  const entryEnd = (s: number, end: number): number => {
    if (!startsEntryAt(hay, s)) return lineAfter(s, end);
    let l = s;
    while (true) {
      const next = lineAfter(l, end);
      if (next >= end) return end;
      if (startsEntryAt(hay, next) || next - s >= MAX_ENTRY_BYTES) return next;
      l = next;
    }
  };

  /** Handles candidate line `q`; returns "stop", "defer" (needs more bytes) or "next". */
  const consider = (q: number, end: number): "stop" | "defer" | "next" => {
    const s = entryStartOf(q);
    if (base + s === lastEntry) return "next";
    const inPage = count >= plan.offset && count < plan.offset + plan.limit;
    const level = levels &&
      (quickLevel(hay, s, textEnd(lineAfter(s, end))) ??
        parseLine(decodeLine(hay, s, textEnd(lineAfter(s, end)))).level);
    if (levels && !levels.has(level!)) {
      lastEntry = base + s;
      return "next";
    }
    if (inPage) {
      const e = entryEnd(s, end);
      // More lines may belong to the entry: wait for them, unless the buffer is full (the
      // next line is then cut: it is longer than a block).
      if (e === end && !eof && end - s < MAX_ENTRY_BYTES && len < capacity) return "defer";
      const lines = decoder.decode(hay.subarray(s, textEnd(e))).split("\n");
      results.push(entryFromLines(lines.map((l) => l.endsWith("\r") ? l.slice(0, -1) : l)));
    }
    lastEntry = base + s;
    count++;
    return count >= stopAt ? "stop" : "next";
  };

  /** Processes complete lines in `[from, end)`; returns where to resume, or -1 to stop. */
  const process = async (from: number, end: number): Promise<number> => {
    const act = (q: number): number | null => {
      const r = consider(q, end);
      return r === "stop" ? -1 : r === "defer" ? q : null;
    };
    if (candidates.kind === "every") {
      for (let q = from; q < end; q = lineAfter(q, end)) {
        const r = act(q);
        if (r !== null) return r;
      }
      return end;
    }
    if (candidates.kind === "dfa") {
      const found: number[] = [];
      let p = from;
      while (p < end) {
        const at = finder.runDfa(p, end, candidates.lineCap);
        if (at < 0) {
          if (hay[end - 1] !== NL) found.push(lineStartOf(end - 1)); // a cut line: RE2 decides
          break;
        }
        found.push(lineStartOf(at));
        p = lineAfter(at, end);
      }
      /** Whether RE2 must test the candidate line at `q` (else the automaton decided it). */
      const needsRe2 = (q: number): boolean => {
        if (!candidates.asciiExact) return true;
        const e = textEnd(lineAfter(q, end));
        if (e - q > candidates.lineCap) return true;
        for (let p = q; p < e; p++) {
          const b = hay[p]!;
          if (b >= 0x80 || (b === CR && p !== e - 1)) return true;
        }
        return false;
      };
      // Tested in growing batches: the scan often stops after the first page.
      for (let k = 0, batch = 16; k < found.length; k += batch, batch *= 4) {
        const part = found.slice(k, k + batch);
        const asked = part.filter(needsRe2);
        const askedSet = new Set(asked);
        const yes = new Set<number>(part.filter((q) => !askedSet.has(q)));
        if (asked.length > 0) {
          const lengths = asked.map((q) => Math.min(lineAfter(q, end) - q, candidates.lineCap + 1));
          const bytes = new Uint8Array(lengths.reduce((a, b) => a + b + 1, 0));
          let at = 0;
          asked.forEach((q, j) => {
            bytes.set(hay.subarray(q, q + lengths[j]!), at);
            at += lengths[j]!;
            if (bytes[at - 1] !== NL) bytes[at++] = NL;
          });
          for (const j of await candidates.match(bytes.subarray(0, at))) yes.add(asked[j]!);
        }
        for (const q of part) {
          if (!yes.has(q)) continue;
          const r = act(q);
          if (r !== null) return r;
        }
      }
      return end;
    }
    if (candidates.kind === "lines") {
      if (from >= end) return end;
      const matches = await candidates.match(hay.subarray(from, textEnd(end)));
      let q = from;
      let index = 0;
      for (const k of matches) {
        for (; index < k; index++) q = lineAfter(q, end);
        const r = act(q);
        if (r !== null) return r;
      }
      return end;
    }
    const n = candidates.needles.length;
    const next = new Array<number>(n).fill(-2);
    const nextCandidate = (at: number): number => {
      let best = Infinity;
      for (let k = 0; k < n; k++) {
        if (next[k] !== -1 && next[k]! < at) next[k] = finder.find(at, end, k);
        if (next[k]! >= 0 && next[k]! < best) best = next[k]!;
      }
      return best === Infinity ? -1 : lineStartOf(best);
    };
    if (!candidates.verify) {
      for (let q = nextCandidate(from); q >= 0; q = nextCandidate(lineAfter(q, end))) {
        const r = act(q);
        if (r !== null) return r;
      }
      return end;
    }
    const found: number[] = [];
    for (let q = nextCandidate(from); q >= 0; q = nextCandidate(lineAfter(q, end))) found.push(q);
    if (found.length === 0) return end;
    const texts = found.map((q) => decodeLine(hay, q, textEnd(lineAfter(q, end))));
    for (const k of await candidates.verify(texts)) {
      const r = act(found[k]!);
      if (r !== null) return r;
    }
    return end;
  };

  while (true) {
    if (!eof && len < capacity) {
      const n = await file.read(hay.subarray(len, len + Math.min(readSize, capacity - len)));
      if (n === null) eof = true;
      else len += n;
      readSize = Math.min(readSize * 2, blockSize);
    }
    if (skipping) {
      // The rest of a line that was cut: skip to its end.
      const nl = hay.subarray(done, len).indexOf(NL);
      done = nl < 0 ? len : done + nl + 1;
      skipping = nl < 0 && !eof;
      if (skipping || done >= len) {
        if (eof) break;
        base += len;
        len = done = 0;
        continue;
      }
    }
    let end: number;
    if (eof) {
      if (len > done && hay[len - 1] !== NL) hay[len++] = NL;
      end = len;
    } else {
      const lastNl = hay.lastIndexOf(NL, len - 1);
      if (lastNl >= done) end = lastNl + 1;
      else if (len === capacity) {
        end = len; // a line longer than a block is cut; the rest of it is skipped
        skipping = true;
      } else continue;
    }
    const resume = await process(done, end);
    if (resume < 0) break;
    done = resume;
    if (eof && done >= len) break;
    const ts = nearestTs(done);
    const keep = ts !== NONE && done - ts < MAX_ENTRY_BYTES ? Math.min(ts, done) : done;
    hay.copyWithin(0, keep, len);
    base += keep;
    len -= keep;
    done -= keep;
  }
  return { results, total: count };
}
