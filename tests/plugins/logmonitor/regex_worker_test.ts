import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { refusalReason, RegexRunner } from "../../../plugins/logmonitor/regex_worker.ts";
import { RE2_IDLE_MS, re2Assets, re2PackageDir } from "../../../plugins/logmonitor/re2_worker.ts";
import { UnprocessableError } from "../../../lib/error.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("RegexRunner matches lines with RE2 and refuses what RE2 cannot run in linear time", async () => {
  const runner = await RegexRunner.open("^err(or)?\\s+\\d{3}$", true);
  try {
    assert.deepEqual(await runner.matchLines(enc("ok\nERROR 500\r\nerr 12\nerr 404")), [1, 3]);
  } finally {
    runner.close();
  }
  for (const pattern of ["(a)\\1", "a(?!b)"]) {
    await assert.rejects(
      RegexRunner.open(pattern, false),
      (e) => e instanceof UnprocessableError && e.code === "regex_unsupported",
    );
  }
});

Deno.test("refusalReason() names backreferences, lookaround and repeat counts", () => {
  assert.match(refusalReason("invalid escape sequence: \\1"), /backreferences/);
  assert.match(refusalReason("invalid escape sequence: \\k"), /backreferences/);
  assert.match(refusalReason("invalid perl operator: (?<"), /lookbehind/);
  assert.match(refusalReason("invalid repetition size: {2000}"), /1000/);
});

Deno.test("regex search works in the permission-scoped host, which reads only re2-wasm's folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/x.log`, "2024-01-01 12:00:00,000 - a - INFO - id 1234567\n");
    const search = fromFileUrl(new URL("../../../plugins/logmonitor/search.ts", import.meta.url));
    const script = `
      import { parseSearchParams, searchFile } from ${JSON.stringify(search)};
      const p = parseSearchParams({ query: "[0-9]{7}", use_regex: "true", levels: [] }, 50);
      console.log((await searchFile(${JSON.stringify(`${dir}/x.log`)}, p)).total);`;
    await Deno.writeTextFile(`${dir}/main.ts`, script);
    const root = fromFileUrl(new URL("../../../", import.meta.url));
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        `--config=${root}deno.json`,
        `--allow-read=${dir},${re2PackageDir()}`,
        `${dir}/main.ts`,
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "1", err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a lazy RegexRunner checks its pattern on the host and starts no worker until lines need RE2", async () => {
  const before = performance.now();
  const runner = await RegexRunner.open("[0-9]{3}x", false, undefined, true);
  try {
    assert.equal(runner.started, false, "no worker after open");
    assert.deepEqual(await runner.matchLines(enc("12x\n123x\n")), [1]);
    assert.equal(runner.started, true);
  } finally {
    runner.close();
  }
  await assert.rejects(
    RegexRunner.open("(\\pL|\\pN|x){1000}", false, undefined, true),
    (e) =>
      e instanceof UnprocessableError && ["regex_too_large", "regex_unsupported"].includes(e.code!),
  );
  assert.ok(performance.now() - before < 30_000);
});

Deno.test("re2-wasm's compiled module is kept while searches come and dropped when they stop", async () => {
  const first = re2Assets();
  assert.equal(re2Assets(), first, "kept between searches");
  await new Promise((r) => setTimeout(r, RE2_IDLE_MS + 200));
  const later = re2Assets();
  assert.notEqual(later.wasm, first.wasm, "compiled again after an idle spell");
  assert.ok(later.loader.includes("HEAPU8.set(value, ptr + 4)"), "the byte copy is one set()");
  await new Promise((r) => setTimeout(r, RE2_IDLE_MS + 200)); // no timer left behind
});
