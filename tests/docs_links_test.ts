/**
 * The docs as a reader follows them: the README stays a short front page, every relative link and
 * anchor in README.md, docs/*.md and the plugins' READMEs leads to a file (and heading) inside the
 * repository, and nothing links outside it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";
import { exists } from "../lib/fs.ts";
import { anchors, type Doc, links, readDocs, slug } from "./_markdown.ts";

const docs = await readDocs();

/** Where a relative link leads, or why it cannot be followed. */
async function follow(from: Doc, target: string, all: Doc[]): Promise<string | null> {
  const [file = "", anchor] = target.split("#", 2) as [string, string | undefined];
  if (file.startsWith("/")) return "an absolute path does not resolve in a clone";
  const path = file === ""
    ? from.path
    : relative(REPO_ROOT, join(REPO_ROOT, dirname(from.path), file));
  if (path.startsWith("..")) return `leads outside the repository (${path})`;
  if (!await exists(join(REPO_ROOT, path))) return `no file ${path}`;
  if (anchor === undefined) return null;
  const doc = all.find((d) => d.path === path);
  if (!doc) return `#${anchor} points into ${path}, which is not Markdown`;
  return anchors(doc.text).has(decodeURIComponent(anchor))
    ? null
    : `${path} has no heading #${anchor}`;
}

Deno.test("the README is a front page of at most 150 lines", () => {
  const readme = docs.find((d) => d.path === "README.md")!;
  const lines = readme.text.trimEnd().split("\n").length;
  assert.ok(lines <= 150, `README.md has ${lines} lines; move the reference into docs/`);
});

Deno.test("the README links every page of docs/", () => {
  const readme = links(docs.find((d) => d.path === "README.md")!.text).map((l) => l.split("#")[0]);
  const pages = docs.filter((d) => d.path.startsWith("docs/")).map((d) => d.path);
  assert.deepEqual(pages.filter((p) => !readme.includes(p)), []);
});

Deno.test("every relative link and anchor of the docs resolves inside the repository", async () => {
  const broken: string[] = [];
  let followed = 0;
  for (const doc of docs) {
    for (const target of links(doc.text)) {
      if (/^(https?|mailto):/.test(target)) continue;
      followed++;
      const why = await follow(doc, target, docs);
      if (why) broken.push(`${doc.path}: (${target}) ${why}`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(followed > 20, `only ${followed} links found: is the link reader broken?`);
});

Deno.test("the link checker refuses links that leave the repository or miss their heading", async () => {
  const doc: Doc = { path: "docs/decisions.md", text: "# Decisions\n\n## Two words\n" };
  const all = [doc, ...docs];
  assert.match((await follow(doc, "../../shared/DECISIONS.md", all))!, /outside the repository/);
  assert.match((await follow(doc, "../shared/DECISIONS.md", all))!, /no file shared/);
  assert.match((await follow(doc, "/work/shared/DECISIONS.md", all))!, /absolute path/);
  assert.match((await follow(doc, "#nowhere", all))!, /no heading #nowhere/);
  assert.equal(await follow(doc, "#two-words", all), null);
  assert.equal(await follow(doc, "../README.md#the-two-commands", all), null);
});

Deno.test("slug() makes GitHub's anchors, numbering repeated headings", () => {
  assert.equal(slug("The framework (`lib/http/fw/`)"), "the-framework-libhttpfw");
  assert.equal(
    slug("Honest parameters, no silent exclusion"),
    "honest-parameters-no-silent-exclusion",
  );
  assert.deepEqual([...anchors("# A\n## B b\n```\n# not a heading\n```\n## B b\n")], [
    "a",
    "b-b",
    "b-b-1",
  ]);
});

/** The `../` paths a doc's text names that lead nowhere inside the repository. */
async function strayPaths(doc: Doc): Promise<string[]> {
  const stray: string[] = [];
  for (const m of doc.text.matchAll(/(?<![\w.\]])(?<!\]\()\.\.\/[\w./-]*/g)) {
    const path = relative(REPO_ROOT, join(REPO_ROOT, dirname(doc.path), m[0]));
    if (path.startsWith("..") || !await exists(join(REPO_ROOT, path))) {
      stray.push(`${doc.path}: ${m[0]}`);
    }
  }
  return stray;
}

Deno.test("every ../ path the docs name is a file of the repository", async () => {
  const stray = (await Promise.all(docs.map(strayPaths))).flat();
  assert.deepEqual(stray, []);
  const spec = "`../shared/DECISIONS.md` records the decisions given to us";
  assert.deepEqual(await strayPaths({ path: "docs/decisions.md", text: spec }), [
    "docs/decisions.md: ../shared/DECISIONS.md",
  ]);
  assert.deepEqual(await strayPaths({ path: "README.md", text: "see ../notes.md" }), [
    "README.md: ../notes.md",
  ]);
});
