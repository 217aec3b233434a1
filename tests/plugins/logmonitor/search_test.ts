import assert from "node:assert/strict";
import { prng } from "../../doubles/_lmstudio_gen.ts";
import { parseSearchParams, searchFile } from "../../../plugins/logmonitor/mod.ts";

const LINE = (i: number, level = "INFO", msg = `message ${i}`) =>
  `2024-01-01 12:00:${String(i % 60).padStart(2, "0")},000 - test.logger - ${level} - ${msg}`;

async function withFile(lines: string[], fn: (path: string) => Promise<void>) {
  const path = await Deno.makeTempFile({ suffix: ".log" });
  try {
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    await fn(path);
  } finally {
    await Deno.remove(path);
  }
}

const params = (q: Record<string, string | string[]>) =>
  parseSearchParams({ ...q, levels: ([] as string[]).concat(q.levels ?? []) } as never, 50);

Deno.test("searchFile() stops at page + 1 matches so total means at least", async () => {
  await withFile(Array.from({ length: 500 }, (_, i) => LINE(i)), async (path) => {
    const r = await searchFile(path, params({ query: "message", limit: "10", offset: "20" }));
    assert.equal(r.results.length, 10);
    assert.equal(r.results[0]!.message, "message 20");
    assert.equal(r.total, 31);
    const last = await searchFile(path, params({ query: "message", limit: "100", offset: "450" }));
    assert.equal(last.results.length, 50);
    assert.equal(last.total, 500, "the true count when the file ends first");
  });
});

Deno.test("searchFile() filters by levels and matches case-insensitively by default", async () => {
  const lines = [
    "garbage disk",
    LINE(1, "INFO", "Disk OK"),
    LINE(2, "WARNING", "disk low"),
    LINE(3, "ERROR", "DISK gone"),
  ];
  await withFile(lines, async (path) => {
    assert.equal((await searchFile(path, params({ query: "disk" }))).total, 4);
    assert.equal(
      (await searchFile(path, params({ query: "disk", case_sensitive: "true" }))).total,
      2,
    );
    const warn = await searchFile(path, params({ query: "disk", levels: ["warning", "ERROR"] }));
    assert.deepEqual(warn.results.map((r) => r.level), ["WARNING", "ERROR"]);
    const unknown = await searchFile(path, params({ levels: ["UNKNOWN"] }));
    assert.deepEqual(unknown.results.map((r) => r.raw), ["garbage disk"]);
  });
});

Deno.test("searchFile() treats the query literally unless use_regex is on", async () => {
  await withFile(
    [LINE(1, "INFO", "a.c"), LINE(2, "INFO", "abc"), LINE(3, "INFO", "x(1)")],
    async (path) => {
      assert.equal((await searchFile(path, params({ query: "a.c" }))).total, 1);
      assert.equal((await searchFile(path, params({ query: "a.c", use_regex: "true" }))).total, 2);
      assert.equal((await searchFile(path, params({ query: "x(1)" }))).total, 1);
      assert.equal(
        (await searchFile(path, params({ query: "^2024.*abc$", use_regex: "true" }))).total,
        1,
      );
    },
  );
});

Deno.test("searchFile() reads lines split across chunks and tolerates binary bytes", async () => {
  const path = await Deno.makeTempFile();
  try {
    const bytes = new TextEncoder().encode("alpha needle one\nbeta\nneedle ünïcode\n");
    const withBinary = new Uint8Array([
      ...bytes,
      0xff,
      0xfe,
      0x0a,
      ...new TextEncoder().encode("last needle"),
    ]);
    await Deno.writeFile(path, withBinary);
    const r = await searchFile(path, params({ query: "needle" }), { blockSize: 7, firstBlock: 3 });
    assert.deepEqual(r.results.map((x) => x.raw), [
      "alpha needle one",
      "needle ünïcode",
      "last needle",
    ]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("parseSearchParams() validates paging, levels and patterns with the reference messages", () => {
  const bad: [Record<string, string | string[]>, RegExp][] = [
    [{ offset: "x" }, /offset and limit must be integers/],
    [{ limit: "1.5" }, /offset and limit must be integers/],
    [{ offset: "-1" }, /offset must be a non-negative integer/],
    [{ limit: "0" }, /limit must be a positive integer/],
    [{ limit: "1001" }, /limit exceeds maximum of 1000/],
    [{ levels: ["INFO", "loud", "WARN"] }, /Invalid severity level\(s\): loud, WARN/],
  ];
  for (const [q, re] of bad) assert.throws(() => params(q), re);
  assert.equal(params({}).limit, 50);
  assert.equal(params({ limit: "1000" }).limit, 1000);
  assert.equal(params({ levels: [] }).levels.size, 6);
});

Deno.test("searchFile() rejects an invalid regular expression with 400", async () => {
  await withFile([LINE(1)], async (path) => {
    await assert.rejects(searchFile(path, params({ query: "(", use_regex: "true" })), {
      name: "UsageError",
      message: /^Invalid search pattern: /,
    });
  });
});

/** grep's count of matching lines in a UTF-8 locale, or null without grep. */
async function grepCount(args: string[], path: string): Promise<number | null> {
  try {
    const out = await new Deno.Command("grep", {
      args: [...args, path],
      env: { LC_ALL: "C.UTF-8" },
      stdout: "piped",
      stderr: "null",
    }).output();
    return Number(new TextDecoder().decode(out.stdout).trim());
  } catch {
    return null;
  }
}

const WORDS = [
  "über",
  "ÜBER",
  "Über",
  "uber",
  "Привет",
  "пРИВЕТ",
  "привет",
  "ΣΟΦΊΑ",
  "σοφία",
  "Ωμέγα",
  "98765432109876543210987654",
  "ωΜΈΓΑ",
  "κόσμος",
  "ΚΌΣΜΟΣ",
  "Straße",
  "id=1234567",
  "12345",
  "x",
];

/** A log of timestamped lines with the words above and numbers, some CRLF. */
function generatedLog(lines: number, crlf = 0.1): string {
  const r = prng(2811);
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const words = Array.from(
      { length: 1 + Math.floor(r() * 5) },
      () => r() < 0.5 ? WORDS[Math.floor(r() * WORDS.length)]! : String(Math.floor(r() * 1e9)),
    );
    out.push(`2024-01-01 12:00:00,000 - app - INFO - ${words.join(" ")}${r() < crlf ? "\r" : ""}`);
  }
  return out.join("\n") + "\n";
}

async function total(path: string, q: Record<string, string>) {
  const params = parseSearchParams({ ...q, levels: [], limit: "1000" }, 50);
  const r = await searchFile(path, params, { regexBudgetMs: 5000 });
  return r.total;
}

Deno.test("a regex without fixed text counts the lines grep -cE counts", async () => {
  const path = await Deno.makeTempFile({ suffix: ".log" });
  try {
    // grep counts a CR as part of the line, the search does not: no CRLF lines here.
    await Deno.writeTextFile(path, generatedLog(800, 0));
    for (
      const pattern of [
        "[0-9]{9}",
        "^2024.*[0-9]{7}$",
        "[0-9]{7}\\s",
        "(1|2)[0-9]{8} [a-z]",
        "([0-9]+)+[a-z]", // nested quantifiers: exponential for a backtracking engine
      ]
    ) {
      const want = await grepCount(["-cE", pattern], path);
      if (want === null) return; // no grep on this machine
      assert.ok(want < 1000, "fewer matches than one page");
      const got = await total(path, { query: pattern, use_regex: "true", case_sensitive: "true" });
      assert.equal(got, Math.min(want, 1001), pattern);
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("case-insensitive text with letters beyond ASCII counts the lines grep -ci counts", async () => {
  const path = await Deno.makeTempFile({ suffix: ".log" });
  try {
    // A line longer than the 8 KiB a regex sees: plain text is searched in all of it.
    const long = `2024-01-01 12:00:00,000 - app - INFO - ${"x ".repeat(5000)}ÜBER ПРИВЕТ ΣΟΦΊΑ\n`;
    await Deno.writeTextFile(path, generatedLog(1500) + long);
    for (const query of ["über", "ÜBER", "привет", "ПРИВЕТ", "σοφία", "ωμέγα", "ΚΌΣΜΟΣ", "ße"]) {
      const want = await grepCount(["-ci", "-F", query], path);
      if (want === null) return;
      assert.ok(want > 0 && want < 1000, `${query}: ${want}`);
      assert.equal(await total(path, { query }), want, query);
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a regex without fixed text finds its lines across blocks, in cut lines, CRLF and UTF-8", async () => {
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) {
    if (i % 37 === 0) lines.push(LINE(i, "INFO", `value ${1_000_000 + i} end`));
    else if (i % 53 === 0) lines.push(LINE(i, "INFO", `id ${7_000_000 + i}\r`));
    else if (i % 101 === 0) lines.push(LINE(i, "DEBUG", `tool at 21.0°C ${2_000_000 + i}`));
    else if (i % 211 === 0) lines.push(LINE(i, "INFO", `${1_234_567} ${"x".repeat(100_000)}`));
    else if (i % 307 === 0) lines.push(LINE(i, "INFO", `${"y".repeat(300_000)} ${7_654_321}`));
    else if (i % 401 === 0) lines.push(LINE(i, "INFO", `${7_654_321} ${"z".repeat(300_000)}`));
    else lines.push(LINE(i, "INFO", `short ${i * 7}`));
  }
  // RE2 sees each line without its CR and cut to its first 8 KiB (all ASCII there).
  const seen = lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l).slice(0, 8192));
  await withFile(lines, async (path) => {
    for (const pattern of ["[0-9]{7}", "[0-9]{7}$", "[°x][A-Z] [0-9]{7}", "^[^z]*[0-9]{7} z"]) {
      const want = seen.filter((l) => new RegExp(pattern, "u").test(l)).length;
      assert.ok(want > 5 && want < 1000, `${pattern}: ${want}`);
      for (const options of [{}, { blockSize: 65_536, firstBlock: 4096 }, { blockSize: 20_000 }]) {
        const r = await searchFile(
          path,
          params({ query: pattern, use_regex: "true", case_sensitive: "true", limit: "1000" }),
          options,
        );
        assert.equal(r.total, want, `${pattern} ${JSON.stringify(options)}`);
      }
    }
  });
});
