import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { readImportGraph, sourceFiles, staticClosure } from "../../tools/import_graph.ts";
import { tempEnv } from "../_helpers.ts";

async function tree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, dirname(path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
}

const SAMPLE: Record<string, string> = {
  "b.ts": [
    '/** import { a } from "./doc.ts"; */',
    'import type { A } from "./a.ts";',
    'import "./side.ts";',
    'export * from "./star.ts";',
    'const m = await import("./lazy.ts");',
    '/* const d = await import("./doc2.ts"); */',
    'import { join } from "node:path";',
    "export const b: A = m.lazy + join.length;",
    "",
  ].join("\n"),
  "a.ts": "export type A = number;\n",
  "side.ts": 'import { star } from "./star.ts";\nconsole.log(star);\n',
  "star.ts": "export const star = 1;\n",
  "lazy.ts": "export const lazy = 2;\n",
  "odd dir/x#1.ts": "export const x = 1;\n",
};

Deno.test("readImportGraph() reads static, type, re-export and dynamic imports but not comments", async () => {
  await using t = await tempEnv();
  await tree(t.root, SAMPLE);
  const graph = await readImportGraph(t.root, ["b.ts"]);
  assert.deepEqual(
    graph.get("b.ts")!.map((i) =>
      `${i.line} ${i.target}${i.typeOnly ? " type" : ""}${i.dynamic ? " dynamic" : ""}`
    ),
    ["2 a.ts type", "3 side.ts", "4 star.ts", "5 lazy.ts dynamic", "7 node:path"],
  );
  assert.deepEqual(graph.get("side.ts")!.map((i) => i.target), ["star.ts"]);
});

Deno.test("readImportGraph() reads every file of a tree in one go, odd names included", async () => {
  await using t = await tempEnv();
  await tree(t.root, SAMPLE);
  const files = sourceFiles(t.root).sort();
  assert.deepEqual(files, ["a.ts", "b.ts", "lazy.ts", "odd dir/x#1.ts", "side.ts", "star.ts"]);
  const graph = await readImportGraph(t.root, files);
  for (const file of files) assert.ok(graph.has(file), file);
});

Deno.test("staticClosure() follows what loads before code runs: no types, no import()", async () => {
  await using t = await tempEnv();
  await tree(t.root, SAMPLE);
  const graph = await readImportGraph(t.root, ["b.ts"]);
  assert.deepEqual(staticClosure(graph, "b.ts"), {
    files: ["b.ts", "side.ts", "star.ts"],
    npm: [],
  });
});
