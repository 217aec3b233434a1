/**
 * The `mod.ts` rule (run by `deno task check`, so by `deno task ok`):
 *
 * 1. A folder that has a `mod.ts` is entered from outside only through that `mod.ts`: an import
 *    from a file outside the folder names `<folder>/mod.ts`, never another file in it or below it
 *    (for nested folders with a `mod.ts` each, the outermost one the importer is outside of).
 * 2. A `mod.ts` only re-exports (`export … from "./…"`): the code lives in the folder's files.
 *
 * `tests/` and `perf/` exercise a folder's files one by one and the generated route manifest
 * loads page and island files by path, so they are exempt. Every import Deno resolves to a file
 * counts (static, `import type`, `export … from`, `import("…")`; read by
 * `tools/import_graph.ts`), doc comments do not.
 *
 * Usage: `deno run --allow-read --allow-run tools/check_mod_rule.ts [ROOT]` prints one line per
 * breach and exits 1 when there is any.
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { printError } from "../lib/log.ts";
import { readImportGraph, sourceFiles } from "./import_graph.ts";

/** One breach of the rule. */
export interface Violation {
  /** The importing file or the `mod.ts` (relative to the root). */
  file: string;
  /** 1-based line of the specifier, or of a mod.ts's first other statement. */
  line: number;
  /** What is wrong, in one sentence. */
  message: string;
}

/** Paths (relative to the root, `/`-separated) whose files the rule does not check. */
export const EXEMPT: readonly string[] = ["tests/", "perf/", "manifest.gen.ts"];

/** The statements of a `mod.ts` that are not re-exports (comments removed), with their line. */
export function nonReexports(text: string): { line: number; text: string }[] {
  const blanked = text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "))
    .replace(/^\s*\/\/.*$/gm, (c) => " ".repeat(c.length));
  const reexport =
    /^export\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s*from\s*(["'])\.{1,2}\/[^"']*\1\s*;?/gm;
  const rest = blanked.replace(reexport, (c) => c.replace(/[^\n]/g, " "));
  const out: { line: number; text: string }[] = [];
  rest.split("\n").forEach((l, i) => {
    if (l.trim() !== "") out.push({ line: i + 1, text: l.trim() });
  });
  return out;
}

/** Whether the rule leaves `file` alone. */
export function isExempt(file: string): boolean {
  return EXEMPT.some((e) => e.endsWith("/") ? file.startsWith(e) : file === e);
}

/**
 * The `mod.ts` an import from `from` of `target` must name instead, or null when `target` is
 * allowed (same folder, no `mod.ts` on the way, or already that `mod.ts`).
 */
export function requiredEntry(
  from: string,
  target: string,
  modDirs: ReadonlySet<string>,
): string | null {
  const parts = target.split("/");
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (!modDirs.has(dir) || from.startsWith(dir + "/")) continue;
    const entry = `${dir}/mod.ts`;
    return target === entry ? null : entry;
  }
  return null;
}

/** Every breach of the rule below `root`. */
export async function checkModRule(root: string): Promise<Violation[]> {
  const files = sourceFiles(root);
  const modDirs = new Set(files.filter((f) => f.endsWith("/mod.ts")).map((f) => dirname(f)));
  const checked = files.filter((f) => !isExempt(f));
  const graph = await readImportGraph(root, checked);
  const out: Violation[] = [];
  for (const file of checked) {
    if (file.endsWith("/mod.ts")) {
      const extra = nonReexports(Deno.readTextFileSync(join(root, file)));
      if (extra.length > 0) {
        out.push({
          file,
          line: extra[0]!.line,
          message:
            `a mod.ts only re-exports (export … from "./…"); ${extra.length} other line(s), ` +
            `the first: ${extra[0]!.text.slice(0, 60)}`,
        });
      }
    }
    for (const { target, line } of graph.get(file) ?? []) {
      const entry = requiredEntry(file, target, modDirs);
      if (entry === null) continue;
      const spec = relative(dirname(file), entry).replaceAll("\\", "/");
      out.push({
        file,
        line,
        message: `imports ${target}; outside ${dirname(entry)}/ import its mod.ts ("${
          spec.startsWith(".") ? spec : `./${spec}`
        }")`,
      });
    }
  }
  return out;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? fileURLToPath(new URL("../", import.meta.url));
  const found = await checkModRule(root);
  for (const v of found) printError(`${v.file}:${v.line}: ${v.message}`);
  if (found.length > 0) {
    printError(`check_mod_rule: ${found.length} breach(es) of the mod.ts rule`);
    Deno.exit(1);
  }
}
