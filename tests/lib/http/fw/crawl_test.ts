import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { crawlProject, isManifestCurrent, manifestSource } from "../../../../lib/http/fw/crawl.ts";
import { islandName } from "../../../../lib/http/fw/islands.ts";
import { manifest } from "../../../../manifest.gen.ts";
import { REPO_ROOT } from "../../../_helpers.ts";

async function project(files: string[]): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "lb_crawl_" });
  for (const f of files) {
    await Deno.mkdir(dirname(join(root, f)), { recursive: true });
    await Deno.writeTextFile(join(root, f), "export default () => null;\n");
  }
  return root;
}

Deno.test("crawlProject() finds routes, special files, islands and every plugin's own", async () => {
  const root = await project([
    "routes/_app.tsx",
    "routes/_layout.tsx",
    "routes/index.tsx",
    "routes/api/_middleware.ts",
    "routes/api/[...rest].ts",
    "routes/api/status_test.ts",
    "routes/_helpers.ts",
    "routes/_private/hidden.tsx",
    "routes/.hidden.tsx",
    "routes/readme.md",
    "islands/Chart.tsx",
    "islands/_shared.ts",
    "plugins/demo/routes/index.tsx",
    "plugins/demo/islands/DemoPanel.tsx",
    "plugins/demo/mod.ts",
    "plugins/bare/mod.ts",
  ]);
  try {
    const files = await crawlProject(root);
    assert.deepEqual(files.routes, [
      "plugins/demo/routes/index.tsx",
      "routes/_app.tsx",
      "routes/_layout.tsx",
      "routes/api/[...rest].ts",
      "routes/api/_middleware.ts",
      "routes/index.tsx",
    ]);
    assert.deepEqual(files.islands, ["islands/Chart.tsx", "plugins/demo/islands/DemoPanel.tsx"]);
    const text = manifestSource(files);
    assert.match(text, /import \* as \$\$1 from "\.\/plugins\/demo\/islands\/DemoPanel\.tsx";/);
    assert.match(text, /"routes\/index\.tsx": \$5,/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("crawlProject() names islands of one file name apart by plugin and refuses one not in PascalCase", async () => {
  const twice = await project([
    "islands/Panel.tsx",
    "plugins/demo/islands/Panel.tsx",
    "plugins/other/islands/Panel.tsx",
  ]);
  const lower = await project(["islands/panel.tsx"]);
  try {
    const { islands } = await crawlProject(twice);
    assert.deepEqual(islands.map(islandName), ["Panel", "demo/Panel", "other/Panel"]);
    await assert.rejects(crawlProject(lower), /name islands in PascalCase/);
  } finally {
    await Deno.remove(twice, { recursive: true });
    await Deno.remove(lower, { recursive: true });
  }
});

Deno.test("manifestSource() of an empty project is a valid empty manifest", () => {
  const text = manifestSource({ routes: [], islands: [] });
  assert.match(text, /routes: \{\},\n {2}islands: \{\},/);
});

Deno.test("the generated manifest lists every route and island file of the project", async () => {
  assert.ok(await isManifestCurrent(REPO_ROOT), "manifest.gen.ts is stale: run deno task build");
  const files = await crawlProject(REPO_ROOT);
  assert.deepEqual(Object.keys(manifest.routes), files.routes);
  assert.deepEqual(Object.keys(manifest.islands), files.islands);
  assert.ok(files.routes.includes("routes/plugins/_middleware.ts"));
  assert.ok(files.routes.includes("plugins/logmonitor/routes/index.tsx"));
  assert.ok(files.islands.includes("plugins/logmonitor/islands/LogViewer.tsx"));
});

Deno.test("the manifest check (deno task check) fails while it is stale and passes once rebuilt", async () => {
  const root = await Deno.makeTempDir({ prefix: "lb_manifest_" });
  try {
    await Deno.mkdir(join(root, "routes"));
    await Deno.writeTextFile(join(root, "routes/index.tsx"), "export default () => null;\n");
    const { writeManifest } = await import("../../../../lib/http/fw/crawl.ts");
    await writeManifest(root);
    assert.equal(await isManifestCurrent(root), true);
    await Deno.mkdir(join(root, "plugins/demo/routes"), { recursive: true });
    await Deno.writeTextFile(join(root, "plugins/demo/routes/index.tsx"), "export default 1;\n");
    assert.equal(await isManifestCurrent(root), false, "a new plugin page makes it stale");
    await writeManifest(root);
    assert.equal(await isManifestCurrent(root), true);
    const text = await Deno.readTextFile(join(root, "manifest.gen.ts"));
    assert.match(text, /"plugins\/demo\/routes\/index.tsx": \$0/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
