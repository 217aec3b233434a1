/**
 * The lines of a block of UTF-8 bytes that an RE2 program matches, fed to RE2 (npm `re2-wasm`)
 * as raw bytes: no decoding to a JS string and back. RE2 searches a window of whole lines at a
 * time in multi-line mode (`^`, `$` at line ends); a hit is mapped to its line, and that line is
 * then tested alone (a match may cross a line break through `\s` or `[^x]`, and a CR before the
 * LF is not part of the line). The window starts small after a hit and doubles up to
 * {@linkcode MAX_WINDOW} while nothing is found, so bytes copied into RE2 stay proportional to
 * the block even when most lines match.
 *
 * {@linkcode matchingLines} is self-contained (no imports, no module constants): the regex
 * worker runs its source text from a blob URL.
 *
 * @module
 */

/** The part of re2-wasm's `WrappedRE2` used here (`input` may be bytes; `index` counts code points). */
export interface Re2Program {
  match(input: Uint8Array, start: number, groups: boolean): { index: number };
}

/** Largest window of bytes given to RE2 at once. */
export const MAX_WINDOW = 256 * 1024;

/**
 * Indices of the lines of `bytes` (lines end with LF; the last may not) that `program` matches,
 * each line seen without its CR and cut to `lineCap` bytes; RE2 scans at most `maxWindow`
 * bytes at once ({@linkcode MAX_WINDOW}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchingLines } from "./re2_lines.ts";
 * const program = { // a stand-in that finds "b" like RE2 would
 *   match: (b: Uint8Array) => ({ index: b.indexOf(0x62) }),
 * };
 * const lines = matchingLines(new TextEncoder().encode("a\nb\nc\nab"), program, 100, 4096);
 * assert.deepEqual(lines, [1, 3]);
 * ```
 */
export function matchingLines(
  bytes: Uint8Array,
  program: Re2Program,
  lineCap: number,
  maxWindow: number,
): number[] {
  const NL = 0x0a;
  const CR = 0x0d;
  const MIN_WINDOW = 4096; // the window after a hit
  /** Bytes of the UTF-8 sequence a byte leads, as re2-wasm counts code points (else 1). */
  const seqLength = (b: number) => ((0xE5000000 >>> ((b >> 3) & 0x1e)) & 3) + 1;
  /** Byte offset in `b` of the code point re2-wasm numbers `index`. */
  const byteOffset = (b: Uint8Array, index: number) => {
    let at = 0;
    for (let n = 0; n < index && at < b.length; n++) at += seqLength(b[at]!);
    return Math.min(at, b.length);
  };
  /** End of the line holding `p` (the index of its LF, or `end`). */
  const lineEnd = (p: number, end: number) => {
    const nl = bytes.indexOf(NL, p);
    return nl < 0 || nl >= end ? end : nl;
  };
  // What RE2 scans: a CR before a LF (or at the end) becomes a LF, so that `$` matches at the
  // end of a CRLF line as it does when the line is tested alone.
  let scan = bytes;
  if (bytes.indexOf(CR) >= 0) {
    scan = bytes.slice();
    for (let p = scan.indexOf(CR); p >= 0; p = scan.indexOf(CR, p + 1)) {
      if (p + 1 === scan.length || scan[p + 1] === NL) scan[p] = NL;
    }
  }
  const out: number[] = [];
  let window = MIN_WINDOW;
  let at = 0; // start of line `index`
  let index = 0;
  while (at < bytes.length) {
    let stop = Math.min(bytes.length, at + window);
    if (stop < bytes.length) {
      const nl = bytes.lastIndexOf(NL, stop - 1);
      stop = nl >= at ? nl + 1 : lineEnd(stop, bytes.length) + 1;
    }
    const slice = scan.subarray(at, Math.min(stop, bytes.length));
    const hit = program.match(slice, 0, false).index;
    if (hit < 0) {
      for (let p = bytes.indexOf(NL, at); p >= 0 && p < stop; p = bytes.indexOf(NL, p + 1)) {
        index++;
      }
      at = stop;
      window = Math.min(window * 2, maxWindow);
      continue;
    }
    const pos = at + byteOffset(slice, hit); // the same count of code points in `bytes`
    for (let p = bytes.indexOf(NL, at); p >= 0 && p < pos; p = bytes.indexOf(NL, p + 1)) {
      index++;
      at = p + 1;
    }
    const end = lineEnd(at, bytes.length);
    let lineStop = Math.min(end, at + lineCap);
    if (lineStop === end && lineStop > at && bytes[lineStop - 1] === CR) lineStop--;
    if (program.match(bytes.subarray(at, lineStop), 0, false).index >= 0) out.push(index);
    index++;
    at = end + 1;
    window = MIN_WINDOW;
  }
  return out;
}
