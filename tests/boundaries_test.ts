/**
 * The layers' import rules (docs/architecture.md): `lib/` imports no route, island, component,
 * plugin, manifest, composition root (`app/`) or entry script; no page or composition file reaches
 * into a plugin (only the registry); a plugin never imports another one; and an island loads only
 * preact, @preact/signals, chart.js, `lib/shared/` and its own side's browser files.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";
import { staticGraph } from "./_module_graph.ts";
import { manifest } from "../manifest.gen.ts";

const IMPORT = /(?:from|import\()\s*"([^"]+)"/g;

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(REPO_ROOT, dir))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await sources(path));
    else if (/\.tsx?$/.test(e.name)) out.push(path);
  }
  return out;
}

/** The repository files a source file imports (relative paths from the root). */
async function imports(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(REPO_ROOT, file));
  return [...text.matchAll(IMPORT)].map((m) => m[1]!).filter((s) => s.startsWith("."))
    .map((s) => relative(REPO_ROOT, join(REPO_ROOT, file, "..", s)));
}

/** The entry scripts. */
const ENTRIES = ["cli.ts", "webapp.ts", "host.ts", "main.ts", "launcher.ts", "tray.ts"];

Deno.test("lib/ imports no route, island, component, plugin, manifest, app/ or entry script", async () => {
  const outside = ["routes/", "islands/", "components/", "plugins/", "app/"];
  for (const file of await sources("lib")) {
    for (const target of await imports(file)) {
      const ok = !outside.some((dir) => target.startsWith(dir)) &&
        target !== "manifest.gen.ts" && !ENTRIES.includes(target);
      assert.ok(ok, `${file} imports ${target}`);
    }
  }
});

Deno.test("no page, component or composition file imports a plugin's files, only the registry", async () => {
  const files = [
    ...await sources("routes"),
    ...await sources("islands"),
    ...await sources("components"),
    ...await sources("app"),
    ...ENTRIES,
  ];
  for (const file of files) {
    for (const target of await imports(file)) {
      if (!target.startsWith("plugins/")) continue;
      assert.equal(target, "plugins/registry.ts", `${file} imports ${target}`);
    }
  }
});

Deno.test("the engine and the reports never import the command line (lib/cli/)", async () => {
  for (const dir of ["lib/bench", "lib/reports"]) {
    for (const file of await sources(dir)) {
      for (const target of await imports(file)) {
        assert.ok(!target.startsWith("lib/cli/"), `${file} imports ${target}`);
      }
    }
  }
});

Deno.test("tests, tools, benchmarks and app/ import no entry script (the web apps are composed in app/)", async () => {
  for (const dir of ["tests", "tools", "perf", "app"]) {
    for (const file of await sources(dir)) {
      for (const target of await imports(file)) {
        assert.ok(!ENTRIES.includes(target), `${file} imports ${target}`);
      }
    }
  }
});

Deno.test("a plugin imports lib/ and its own files, never another plugin", async () => {
  for await (const e of Deno.readDir(join(REPO_ROOT, "plugins"))) {
    if (!e.isDirectory) continue;
    for (const file of await sources(`plugins/${e.name}`)) {
      for (const target of await imports(file)) {
        const ok = target.startsWith(`plugins/${e.name}/`) || target.startsWith("lib/");
        assert.ok(ok, `${file} imports ${target}`);
      }
    }
  }
});

Deno.test("islands load only preact, signals, chart.js, lib/shared and their side's browser files", async () => {
  for (const file of Object.keys(manifest.islands)) {
    const own = file.startsWith("plugins/") ? file.split("/").slice(0, 2).join("/") + "/" : null;
    const graph = await staticGraph(file);
    for (const dep of graph.files) {
      const ok = dep.startsWith("lib/shared/") ||
        (own ? dep.startsWith(own) : dep.startsWith("islands/") || dep.startsWith("components/"));
      assert.ok(ok, `${file} loads ${dep}`);
    }
    for (const pkg of graph.npm) {
      assert.ok(
        ["preact", "@preact/signals", "@preact/signals-core", "chart.js"].includes(pkg),
        pkg,
      );
    }
  }
});
