import assert from "node:assert/strict";
import { RE2 } from "re2-wasm";
import { buildDfa, DFA_EOL, DFA_MATCH } from "../../../plugins/logmonitor/regex_dfa.ts";
import { ByteFinder } from "../../../plugins/logmonitor/scan_kernel.ts";
import { prng } from "../../doubles/_lmstudio_gen.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const CAP = 64;

/** The candidate lines of `lines` (joined with LF) as the byte kernel finds them. */
function candidates(table: Int32Array, lines: string[]): Set<number> {
  const bytes = enc(lines.join("\n") + "\n");
  const finder = new ByteFinder(bytes.length + 1);
  finder.hay.set(bytes);
  finder.setDfa(table);
  const starts = [0];
  for (let p = bytes.indexOf(10); p >= 0 && p + 1 < bytes.length; p = bytes.indexOf(10, p + 1)) {
    starts.push(p + 1);
  }
  const lineOf = (at: number) => starts.findLastIndex((s) => s <= at);
  const found = new Set<number>();
  for (let p = 0; p < bytes.length;) {
    const at = finder.runDfa(p, bytes.length, CAP);
    if (at < 0) break;
    found.add(lineOf(at));
    const nl = bytes.indexOf(10, at);
    p = nl + 1;
  }
  return found;
}

/** A random pattern over a small alphabet, in the syntax the prefilter reads. */
function randomPattern(r: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const atoms = ["a", "b", "x", "k", "[a-c]", "[^ab]", "\\d", "\\w", "\\s", "\\W", "\\S", "."];
  atoms.push("-", "ü", "[ü-ÿ]", "[^ü]", "\u212a", "ſ", "[r-t]");
  const quant = ["", "", "", "*", "+", "?", "{2}", "{0,2}", "{1,}", "+?"];
  const piece = (depth: number): string => {
    const n = 1 + Math.floor(r() * 3);
    let out = "";
    for (let k = 0; k < n; k++) {
      out += depth < 2 && r() < 0.2 ? `(${piece(depth + 1)}|${piece(depth + 1)})` : pick(atoms);
      out += pick(quant);
    }
    return out;
  };
  return (r() < 0.2 ? "^" : "") + piece(0) + (r() < 0.2 ? "$" : "");
}

function randomLine(r: () => number, alphabet: string[]): string {
  const n = Math.floor(r() * 12);
  let out = "";
  for (let k = 0; k < n; k++) out += alphabet[Math.floor(r() * alphabet.length)];
  return out;
}

Deno.test("the prefilter lets through every line RE2 matches, exactly those on ASCII lines", async () => {
  const r = prng(28);
  const ascii = ["a", "b", "c", "x", "1", "2", " ", "\t", "_", "-", "A", "B", "X", "k", "S"];
  const wide = [...ascii, "°", "é", "\u212a", "ſ", "ж", "\r"];
  let built = 0;
  let exact = 0;
  for (let k = 0; k < 250; k++) {
    const pattern = randomPattern(r);
    for (const ignoreCase of [false, true]) {
      const dfa = await buildDfa(pattern, ignoreCase);
      if (dfa === null) continue;
      built++;
      const re = new RE2(pattern, ignoreCase ? "uim" : "um");
      const asciiLines = Array.from({ length: 60 }, () => randomLine(r, ascii));
      const wideLines = Array.from({ length: 60 }, () => randomLine(r, wide));
      const onAscii = candidates(dfa.table, asciiLines);
      asciiLines.forEach((line, i) => {
        const want = re.test(line);
        const where = `/${pattern}/${ignoreCase ? "i" : ""} on ${line}`;
        if (dfa.asciiExact) assert.equal(onAscii.has(i), want, where);
        else if (want) assert.ok(onAscii.has(i), where);
      });
      if (dfa.asciiExact) exact++;
      const onWide = candidates(dfa.table, wideLines);
      wideLines.forEach((line, i) => {
        const seen = line.endsWith("\r") ? line.slice(0, -1) : line;
        if (re.test(seen)) {
          assert.ok(onWide.has(i), `/${pattern}/ must let ${JSON.stringify(line)} through`);
        }
      });
    }
  }
  assert.ok(built > 400 && exact > 300, `${built} automata built, ${exact} exact on ASCII`);
});

Deno.test("a line longer than the cap is always a candidate; an LF ends each line", async () => {
  const dfa = (await buildDfa("q$", false))!;
  const lines = ["x".repeat(CAP + 1), "abq", "q-", "q\r"];
  assert.deepEqual([...candidates(dfa.table, lines)].sort(), [0, 1, 3]);
  assert.equal(dfa.table[10], DFA_EOL, "an LF in the start state ends a line");
  assert.ok(dfa.table.includes(DFA_MATCH));
});

Deno.test("patterns the prefilter does not read, that match every line, or are too large give null", async () => {
  for (
    const pattern of ["(?i)a", "a(?=b)", "(a)\\1", "[[:alpha:]]", "[]a]", "a{,3}", "\\z", "x*", "^"]
  ) {
    assert.equal(await buildDfa(pattern, false), null, pattern);
  }
  assert.equal(await buildDfa("(a|b)*a(a|b){12}", false), null, "2^13 states");
  assert.equal(await buildDfa(".{1000}x", false), null, "too much work");
});

Deno.test("\\b, \\p and folded sets beyond ASCII make the prefilter inexact on ASCII lines", async () => {
  assert.equal((await buildDfa("\\bab", false))!.asciiExact, false);
  assert.equal((await buildDfa("\\pLx", false))!.asciiExact, false);
  assert.equal((await buildDfa("k[a-z]+", true))!.asciiExact, true);
  assert.equal((await buildDfa("[ü-ÿ]x", true))!.asciiExact, false, "may hold the Kelvin sign");
  assert.equal((await buildDfa("[ü-ÿ]x", false))!.asciiExact, true);
  assert.equal((await buildDfa("üx", true))!.asciiExact, true);
});
