import assert from "node:assert/strict";
import { prng } from "../../doubles/_lmstudio_gen.ts";
import { parseSearchParams, searchFile } from "../../../plugins/logmonitor/mod.ts";
import {
  entryFromLines,
  MAX_ENTRY_BYTES,
  startsEntry,
} from "../../../plugins/logmonitor/entries.ts";
import { type ParsedLine, parseLine } from "../../../plugins/logmonitor/parse.ts";

const WORDS = ["disk", "Disk", "DISK", "°C", "error", "Critical", "warn", "ünï", "a-b", "x.y"];
const LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"];

function randomLog(r: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const lines: string[] = [];
  const n = 5 + Math.floor(r() * 60);
  for (let i = 0; i < n; i++) {
    const x = r();
    const ts = `2024-01-0${1 + Math.floor(r() * 9)} 12:00:0${Math.floor(r() * 10)},123`;
    if (x < 0.45) {
      lines.push(`${ts} - app.core - ${pick(LEVELS)} - ${words(1 + Math.floor(r() * 4))}`);
    } else if (x < 0.55) lines.push(`${ts} - ${words(2)}`);
    else if (x < 0.6) lines.push(`${ts} ${pick(LEVELS)} serial ${words(2)}`);
    else if (x < 0.85) lines.push(`  File "x.py", line ${i}, ${words(2)}`);
    else if (x < 0.9) lines.push(`${words(3)}\r`);
    else if (x < 0.95) lines.push("");
    else lines.push("Traceback (most recent call last): " + words(1));
  }
  return lines.join("\n") + (r() < 0.7 ? "\n" : "");
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The search's meaning written plainly: split, group, match, filter, page. */
function reference(
  text: string,
  q: {
    query: string;
    cs: boolean;
    regex: boolean;
    levels: string[];
    offset: number;
    limit: number;
  },
): { results: ParsedLine[]; total: number } {
  const enc = new TextEncoder();
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const entries: string[][] = [];
  let open: { start: number; lines: string[] } | null = null;
  let at = 0;
  for (const raw of lines) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (startsEntry(line)) {
      open = { start: at, lines: [line] };
      entries.push(open.lines);
    } else if (open && at - open.start < MAX_ENTRY_BYTES) open.lines.push(line);
    else entries.push([line]);
    at += enc.encode(raw).length + 1;
  }
  const re = q.query === ""
    ? null
    : new RegExp(q.regex ? q.query : escape(q.query), q.cs ? "" : "i");
  const matched = entries.filter((e) =>
    (re === null || e.some((l) => re.test(l))) &&
    (q.levels.length === 0 || q.levels.includes(parseLine(e[0]!).level))
  );
  return {
    results: matched.slice(q.offset, q.offset + q.limit).map(entryFromLines),
    total: Math.min(matched.length, q.offset + q.limit + 1),
  };
}

Deno.test("searchFile() agrees with the plain reading of the rules on random logs and block sizes", async () => {
  const r = prng(20260301);
  const path = await Deno.makeTempFile({ suffix: ".log" });
  const queries = [
    ...WORDS,
    "",
    "zzz-none",
    "e",
  ];
  const regexes = [
    "d[iI]sk",
    "^\\s+File",
    "crit.*l$",
    "[0-9]+,123 -",
    "(a|b)-",
    "ü.",
    "°C$",
    "(disk|warn)",
    "error|Critical x",
  ];
  try {
    for (let round = 0; round < 250; round++) {
      const text = randomLog(r);
      await Deno.writeTextFile(path, text);
      const regex = r() < 0.3;
      const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
      const q = {
        query: regex ? pick(regexes) : pick(queries),
        cs: r() < 0.4,
        regex,
        levels: r() < 0.5 ? [] : LEVELS.concat("UNKNOWN").filter(() => r() < 0.4),
        offset: Math.floor(r() * 4),
        limit: 1 + Math.floor(r() * 6),
      };
      const params = parseSearchParams({
        query: q.query,
        levels: q.levels,
        offset: String(q.offset),
        limit: String(q.limit),
        case_sensitive: String(q.cs),
        use_regex: String(q.regex),
      }, 50);
      const blockSize = 8 + Math.floor(r() * 600);
      const got = await searchFile(path, params, {
        blockSize,
        firstBlock: 1 + Math.floor(r() * 64),
      });
      const want = reference(text, q);
      const label = `round ${round}: ${JSON.stringify(q)} block ${blockSize}\n${text}`;
      assert.equal(got.total, want.total, label);
      assert.deepEqual(got.results, want.results, label);
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a traceback belongs to its entry in search, level filter and paging", async () => {
  const path = await Deno.makeTempFile({ suffix: ".log" });
  try {
    await Deno.writeTextFile(
      path,
      [
        "2024-01-01 12:00:00,000 - app - INFO - start",
        "2024-01-01 12:00:01,000 - app - ERROR - hook failed",
        "Traceback (most recent call last):",
        '  File "plugin.py", line 3, in run',
        "ValueError: bad reading",
        "2024-01-01 12:00:02,000 - app - INFO - ValueError handled",
      ].join("\n") + "\n",
    );
    const search = (q: Record<string, unknown>) =>
      searchFile(path, parseSearchParams({ levels: [], ...q } as never, 50));
    const errors = await search({ levels: ["ERROR"] });
    assert.equal(errors.total, 1);
    assert.equal(
      errors.results[0]!.message,
      'hook failed\nTraceback (most recent call last):\n  File "plugin.py", line 3, in run\nValueError: bad reading',
    );
    const byTrace = await search({ query: "valueerror" });
    assert.deepEqual(byTrace.results.map((e) => e.level), ["ERROR", "INFO"]);
    assert.equal((await search({ query: "plugin.py", levels: ["UNKNOWN"] })).total, 0);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("lines more than 128 KiB below their timestamped line stand alone", async () => {
  const path = await Deno.makeTempFile({ suffix: ".log" });
  try {
    const filler = Array.from({ length: 1500 }, (_, i) => `  frame ${i} ${"x".repeat(90)}`);
    await Deno.writeTextFile(
      path,
      ["2024-01-01 12:00:01,000 - app - ERROR - deep", ...filler, "tail marker"].join("\n"),
    );
    const r = await searchFile(path, parseSearchParams({ query: "tail marker", levels: [] }, 50));
    assert.deepEqual(r.results.map((e) => [e.level, e.raw]), [["UNKNOWN", "tail marker"]]);
    const first = await searchFile(path, parseSearchParams({ query: "deep", levels: [] }, 50));
    assert.ok(first.results[0]!.raw.endsWith(" …[cut]"), "a long entry is cut when returned");
  } finally {
    await Deno.remove(path);
  }
});
