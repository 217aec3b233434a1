/**
 * The layers' import rules (docs/architecture.md): `lib/` imports no route, island, component,
 * plugin, manifest, composition root (`app/`) or entry script; no page or composition file reaches
 * into a plugin (only the registry); a plugin never imports another one; and an island loads only
 * preact, @preact/signals, chart.js, `lib/shared/` and its own side's browser files.
 */
import assert from "node:assert/strict";
import { REPO_ROOT } from "./_helpers.ts";
import { readImportGraph, sourceFiles, staticClosure } from "../tools/import_graph.ts";
import { manifest } from "../manifest.gen.ts";

const FILES = sourceFiles(REPO_ROOT);
const KNOWN = new Set(FILES);
const GRAPH = await readImportGraph(REPO_ROOT, FILES);

function sources(dir: string): string[] {
  return FILES.filter((f) => f.startsWith(`${dir}/`));
}

/** The repository files a source file imports (relative paths from the root). */
function imports(file: string): string[] {
  return (GRAPH.get(file) ?? []).map((i) => i.target).filter((t) => KNOWN.has(t));
}

/** The entry scripts. */
const ENTRIES = ["cli.ts", "webapp.ts", "host.ts", "main.ts", "launcher.ts", "tray.ts"];

Deno.test("lib/ imports no route, island, component, plugin, manifest, app/ or entry script", () => {
  const outside = ["routes/", "islands/", "components/", "plugins/", "app/"];
  for (const file of sources("lib")) {
    for (const target of imports(file)) {
      const ok = !outside.some((dir) => target.startsWith(dir)) &&
        target !== "manifest.gen.ts" && !ENTRIES.includes(target);
      assert.ok(ok, `${file} imports ${target}`);
    }
  }
});

Deno.test("no page, component or composition file imports a plugin's files, only the registry", () => {
  const files = [
    ...sources("routes"),
    ...sources("islands"),
    ...sources("components"),
    ...sources("app"),
    ...ENTRIES,
  ];
  for (const file of files) {
    for (const target of imports(file)) {
      if (!target.startsWith("plugins/")) continue;
      assert.equal(target, "plugins/registry.ts", `${file} imports ${target}`);
    }
  }
});

Deno.test("the engine and the reports never import the command line (lib/cli/)", () => {
  for (const dir of ["lib/bench", "lib/reports"]) {
    for (const file of sources(dir)) {
      for (const target of imports(file)) {
        assert.ok(!target.startsWith("lib/cli/"), `${file} imports ${target}`);
      }
    }
  }
});

Deno.test("tests, tools, benchmarks and app/ import no entry script (the web apps are composed in app/)", () => {
  for (const dir of ["tests", "tools", "perf", "app"]) {
    for (const file of sources(dir)) {
      for (const target of imports(file)) {
        assert.ok(!ENTRIES.includes(target), `${file} imports ${target}`);
      }
    }
  }
});

Deno.test("a plugin imports lib/ and its own files, never another plugin", () => {
  for (const file of sources("plugins")) {
    const [, id, ...rest] = file.split("/");
    if (rest.length === 0) continue; // plugins/registry.ts is the host's side
    for (const target of imports(file)) {
      const ok = target.startsWith(`plugins/${id}/`) || target.startsWith("lib/");
      assert.ok(ok, `${file} imports ${target}`);
    }
  }
});

Deno.test("islands load only preact, signals, chart.js, lib/shared and their side's browser files", () => {
  for (const file of Object.keys(manifest.islands)) {
    const own = file.startsWith("plugins/") ? file.split("/").slice(0, 2).join("/") + "/" : null;
    const graph = staticClosure(GRAPH, file);
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
