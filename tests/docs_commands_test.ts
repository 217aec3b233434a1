/**
 * The docs name what exists: every `deno task` they write is a task of deno.json and every task is
 * written somewhere; docs/benchmark.md lists every benchmark option (and no other); the benchmark
 * commands printed in the README and docs parse as the program parses them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";
import { fencedLines, readDocs } from "./_markdown.ts";
import { FLAGS, parseFlags } from "../lib/cli/mod.ts";

const docs = await readDocs();
const all = docs.map((d) => d.text).join("\n");
const benchmarkDoc = docs.find((d) => d.path === "docs/benchmark.md")!.text;
const tasks = Object.keys(
  (JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json"))) as {
    tasks: Record<string, string>;
  }).tasks,
);

Deno.test("every deno task the docs write exists, and every task is documented", () => {
  const written = new Set([...all.matchAll(/deno task ([\w:-]+)/g)].map((m) => m[1]!));
  assert.deepEqual([...written].filter((t) => !tasks.includes(t)), []);
  assert.deepEqual(tasks.filter((t) => !written.has(t)), []);
});

Deno.test("the README prints the two commands exactly as CI and a new user run them", () => {
  const readme = fencedLines(docs.find((d) => d.path === "README.md")!.text);
  assert.match(readme[0]!, /^npm ci && npx deno task demo +# /);
  assert.match(readme[1]!, /^npm ci && npx deno task test +# /);
  const ci = Deno.readTextFileSync(join(REPO_ROOT, ".ci/run"));
  assert.match(ci, /^npm ci /m);
  assert.match(ci, /^npx deno task demo /m);
});

/** The options section of docs/benchmark.md: from its heading to the next one of its level. */
function optionsSection(text: string): string {
  const start = text.indexOf("\n## Options\n");
  assert.ok(start >= 0, "docs/benchmark.md has no '## Options' section");
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

Deno.test("docs/benchmark.md lists every benchmark option, with its short form and aliases", () => {
  const section = optionsSection(benchmarkDoc);
  const missing: string[] = [];
  for (const spec of FLAGS) {
    const names = [`--${spec.long}`, ...(spec.aliases ?? []).map((a) => `--${a}`)];
    if (spec.short) names.push(`-${spec.short}, --${spec.long}`);
    for (const name of names) {
      if (!new RegExp(`${name}(?![\\w-])`).test(section)) missing.push(name);
    }
  }
  if (!section.includes("-h, --help")) missing.push("-h, --help");
  assert.deepEqual(missing, []);
});

Deno.test("every option docs/benchmark.md lists in its options section is one the program takes", () => {
  const known = new Set(["help", ...FLAGS.flatMap((s) => [s.long, ...(s.aliases ?? [])])]);
  const listed = [...optionsSection(benchmarkDoc).matchAll(/(?<![\w-])--([a-z][\w-]*)/g)]
    .map((m) => m[1]!);
  assert.deepEqual(listed.filter((name) => !known.has(name)), []);
  assert.ok(listed.length >= FLAGS.length, "the options section lists fewer names than there are");
});

/** The benchmark command lines printed in code blocks (placeholders such as `[options]` left out). */
function benchCommands(): string[][] {
  return docs.flatMap((d) => fencedLines(d.text))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => /^(npx )?deno task bench\b/.test(line) && !/[[\]<>]/.test(line))
    .map((line) => line.replace(/^(npx )?deno task bench\s*/, "").split(/\s+/).filter(Boolean));
}

Deno.test("every benchmark command the docs print parses as the program parses it", () => {
  const commands = benchCommands();
  assert.ok(commands.length >= 8, `only ${commands.length} benchmark commands found`);
  for (const argv of commands) {
    assert.doesNotThrow(() => parseFlags(argv), `deno task bench ${argv.join(" ")}`);
  }
  assert.throws(() => parseFlags(["--", "--runs", "0"]));
});

Deno.test("docs/contributing.md names every Debian package the tests install", async () => {
  const script = await Deno.readTextFile(join(REPO_ROOT, "tools/test_deps.sh"));
  const list = script.match(/^packages=\(\n([\s\S]*?)^\)/m)?.[1] ?? "";
  const packages = list.split("\n").flatMap((l) => l.replace(/#.*/, "").trim().split(/\s+/))
    .filter(Boolean);
  assert.ok(packages.length >= 10, `only ${packages.length} packages read from test_deps.sh`);
  const contributing = docs.find((d) => d.path === "docs/contributing.md")!.text;
  assert.deepEqual(packages.filter((p) => !contributing.includes(`\`${p}\``)), []);
});
