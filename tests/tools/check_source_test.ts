import assert from "node:assert/strict";
import { join } from "node:path";
import { checkSource, checkTestName, checkText } from "../../tools/check_source.ts";
import { REPO_ROOT, runDeno, tempEnv } from "../_helpers.ts";

// Built from parts so that this file holds no doc comment with the call it checks for.
const DOC = (
  line: string,
) => ["/" + "**", " * @example", " * ```ts", ` * ${line}`, " * ```", " */"];

Deno.test("a console.assert in a doc comment is refused at its line; node:assert passes", () => {
  const bad = [...DOC("console" + ".assert(f() === 1);"), "export const f = () => 1;"].join("\n");
  assert.deepEqual(checkText("lib/f.ts", bad).map((f) => `${f.file}:${f.line}`), ["lib/f.ts:4"]);
  const good = [...DOC("assert.equal(f(), 1);"), "export const f = () => 1;"].join("\n");
  assert.deepEqual(checkText("lib/f.ts", good), []);
  assert.deepEqual(checkText("lib/f.ts", "console" + ".assert(true);\n"), [], "code is not a doc");
});

Deno.test("an inline JSON-object test is refused in any order or negation; the helper passes", () => {
  const spellings = [
    'typeof v === "object" && v !== null && !Array.isArray(v)',
    'v === null || typeof v !== "object" || Array.isArray(v)',
    'v && typeof v === "object" && !Array.isArray(v)',
    '!Array.isArray(a.b) && typeof a.b === "object" && a.b !== null',
  ];
  for (const test of spellings) {
    const found = checkText("lib/x.ts", `let v: unknown;\nif (\n  ${test}\n) {}\n`);
    assert.deepEqual(found.map((f) => f.line), [3], test);
    assert.match(found[0]!.message, /use isPlainObject \(lib\/shared\/json_object\.ts\)/);
  }
  const good = [
    "if (isPlainObject(v)) {}",
    'if (typeof v === "object" && v !== null) {} // a non-null object, arrays too',
    'if (typeof v === "object") {}\nconst list = Array.isArray(v);',
    'if (typeof w === "object" && !Array.isArray(v)) {}',
  ];
  for (const text of good) assert.deepEqual(checkText("lib/x.ts", text), [], text);
  assert.deepEqual(checkText("tests/x_test.ts", `if (${spellings[0]}) {}`), [], "tests/ exempt");
});

Deno.test("a test file must name the file, folder or helper it tests; scenario tests are exempt", () => {
  const tree = new Set([
    "lib/a/b.ts",
    "lib/a/c/",
    "tools/d.sh",
    "tests/lib/e.ts",
    "tests/doubles/f.ts",
    "doubles/g.ts",
  ]);
  const named = (file: string) => checkTestName(file, (p) => tree.has(p));
  for (
    const ok of [
      "tests/lib/a/b_test.ts",
      "tests/lib/a/c_test.ts",
      "tests/tools/d_test.ts",
      "tests/lib/e_test.ts",
      "tests/doubles/f_test.ts",
      "tests/e2e/any_scenario_test.ts",
      "tests/security/any_attack_test.ts",
      "tests/docs_links_test.ts",
      "tests/lib/a/_fixture.ts",
    ]
  ) assert.deepEqual(named(ok), [], ok);
  const [misc] = named("tests/lib/a/misc_test.ts");
  assert.equal(`${misc?.file}:${misc?.line}`, "tests/lib/a/misc_test.ts:1");
  assert.match(misc!.message, /lib\/a\/misc\.ts, .*lib\/a\/misc\/, tests\/lib\/a\/misc\.ts/);
  assert.equal(named("tests/doubles/g_test.ts").length, 1, "a double's test names a double");
  assert.equal(named("tests/lib/b_test.ts").length, 1, "the mirror path, not the name alone");
});

Deno.test("the check run as a command names file and line and exits 1; a clean tree passes", async () => {
  await using t = await tempEnv();
  await Deno.mkdir(join(t.root, "lib"));
  await Deno.writeTextFile(
    join(t.root, "lib/a.ts"),
    'export const a = (v: unknown) =>\n  typeof v === "object" && v !== null && !Array.isArray(v);\n',
  );
  const r = await runDeno(["run", "--allow-read", "tools/check_source.ts", t.root]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^lib\/a\.ts:2: an inline JSON-object test of 'v'/m);
  assert.match(r.stderr, /check_source: 1 breach\(es\)/);
  await Deno.writeTextFile(join(t.root, "lib/a.ts"), "export const a = 1;\n");
  const ok = await runDeno(["run", "--allow-read", "tools/check_source.ts", t.root]);
  assert.equal(ok.code, 0, ok.stderr);
});

Deno.test("the repository keeps the rules", () => {
  assert.deepEqual(checkSource(REPO_ROOT), []);
});
