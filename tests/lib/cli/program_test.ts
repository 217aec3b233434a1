import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError } from "../../../lib/error.ts";
import { FLAGS, parseFlags, SEED_FLAG_COUNT } from "../../../lib/cli/mod.ts";

function flags(argv: string[]) {
  const r = parseFlags(argv);
  if ("help" in r) throw new Error("unexpected help");
  return r.flags;
}

function rejects(argv: string[], pattern: RegExp) {
  assert.throws(
    () => parseFlags(argv),
    (e: unknown) => e instanceof AppError && statusOf(e) === 400 && pattern.test(e.message),
    `expected ${argv.join(" ")} to be refused with ${pattern}`,
  );
}

Deno.test("the command line has the seed's 49 arguments", () => {
  assert.equal(SEED_FLAG_COUNT, 49);
  const longs = FLAGS.map((f) => f.long);
  for (const name of ["debug", "no-flash-attention", "no-mmap", "backend", "base-url"]) {
    assert.ok(longs.includes(name), name);
  }
});

/** A valid sample value for every kind of flag, and what it parses to. */
const SAMPLES: Record<string, [string[], unknown]> = {
  int: [["7"], 7],
  float: [["0.5"], 0.5],
  string: [["some text"], "some text"],
  list: [["a, b,c"], ["a", "b", "c"]],
  ints: [["128, 512,128"], [128, 512]],
  floats: [["0.5,2"], [0.5, 2]],
  regex: [["qwen|phi"], "qwen|phi"],
  url: [["http://127.0.0.1:8080/"], "http://127.0.0.1:8080"],
};

for (const spec of FLAGS) {
  Deno.test(`parseFlags() reads --${spec.long}`, () => {
    if (spec.kind === "bool") {
      assert.equal(flags([`--${spec.long}`])[spec.key], spec.value ?? true);
      if (spec.short) assert.equal(flags([`-${spec.short}`])[spec.key], spec.value ?? true);
      return;
    }
    let [args, expected] = SAMPLES[spec.kind] ?? [[spec.choices![0]!], spec.choices![0]];
    if (spec.kind === "float" && spec.max !== undefined) [args, expected] = [["0.5"], 0.5];
    if (spec.kind === "int" && spec.min === -1) [args, expected] = [["-1"], -1];
    assert.deepEqual(flags([`--${spec.long}`, ...args])[spec.key], expected);
    assert.deepEqual(flags([`--${spec.long}=${args[0]}`])[spec.key], expected);
    if (spec.short) assert.deepEqual(flags([`-${spec.short}`, ...args])[spec.key], expected);
  });
}

Deno.test("parseFlags() returns only the flags given", () => {
  assert.deepEqual(flags([]), {});
  assert.deepEqual(flags(["-r", "2", "-d"]), { runs: 2, debug: true });
});

Deno.test("parseFlags() drops the -- that `deno task bench -- opts` passes first", () => {
  assert.deepEqual(flags(["--", "-r", "2"]), { runs: 2 });
  assert.ok("help" in parseFlags(["--", "--help"]));
});

Deno.test("parseFlags() accepts the *-sampling aliases", () => {
  assert.deepEqual(
    flags(["--top-k-sampling", "5", "--top-p-sampling=0.8", "--min-p-sampling", "0.1"]),
    {
      top_k: 5,
      top_p: 0.8,
      min_p: 0.1,
    },
  );
});

Deno.test("parseFlags() reads the negated load flags", () => {
  assert.deepEqual(flags(["--no-flash-attention", "--no-mmap"]), {
    flash_attention: false,
    use_mmap: false,
  });
  assert.deepEqual(flags(["--flash-attention", "--use-mmap"]), {
    flash_attention: true,
    use_mmap: true,
  });
  rejects(["--use-mmap", "--no-mmap"], /contradict/);
});

Deno.test("parseFlags() refuses invalid values with a clear message", async (t) => {
  const cases: [string[], RegExp][] = [
    [["--runs", "0"], /--runs <n>' argument '0' is invalid\. Must be an integer ≥ 1/],
    [["--runs", "1.5"], /Must be an integer/],
    [["--context", "abc"], /--context <tokens>' argument 'abc' is invalid/],
    [["--limit", "-3"], /Must be an integer ≥ 1/],
    [["--max-size", "0"], /Must be a number > 0/],
    [["--temperature", "3"], /Must be a number between 0.0 and 2.0/],
    [["--top-p", "1.5"], /between 0.0 and 1.0/],
    [["--n-gpu-layers", "-2"], /≥ -1/],
    [["--include-models", "(("], /Not a valid regular expression/],
    [["--exclude-models", "[a-"], /Not a valid regular expression/],
    [["--kv-cache-quant", "q9"], /Allowed choices are f32, f16/],
    [["--rank-by", "fun"], /Allowed choices are speed, efficiency, ttft, vram/],
    [["--backend", "ollama"], /Allowed choices are sdk, rest, openai/],
    [["--base-url", "ftp://x"], /http:\/\/ or https:\/\//],
    [["--quants", " , "], /at least one value/],
    [["--prompt", "  "], /Must be a non-empty string/],
    [["--compare-with", ""], /Must be a non-empty string/],
    [["--runs"], /argument missing/],
    [["--bogus"], /unknown option '--bogus'/],
    [["stray"], /too many arguments/],
  ];
  for (const [argv, pattern] of cases) {
    await t.step(argv.join(" "), () => rejects(argv, pattern));
  }
});

Deno.test("parseFlags() returns the help text grouped by category for --help and -h", () => {
  for (const arg of ["--help", "-h"]) {
    const r = parseFlags([arg]);
    assert.ok("help" in r);
    const categories = [
      "Basic",
      "Presets",
      "Filter",
      "Cache",
      "Profiling",
      "Inference",
      "Load",
      "REST",
      "Comparison",
    ];
    let last = -1;
    for (const c of categories) {
      const at = r.help.indexOf(`${c} options:`);
      assert.ok(at > last, `${c} group in order`);
      last = at;
    }
  }
});
