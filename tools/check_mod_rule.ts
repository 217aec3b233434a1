/**
 * The `mod.ts` rule (run by `deno task check`, so by `deno task ok`):
 *
 * 1. A folder that has a `mod.ts` is entered from outside only through that `mod.ts`: an import
 *    from a file outside the folder names `<folder>/mod.ts`, never another file in it or below it
 *    (for nested folders with a `mod.ts` each, the outermost one the importer is outside of).
 * 2. A `mod.ts` only re-exports (`export … from "./…"`): the code lives in the folder's files.
 *
 * `tests/` and `perf/` exercise a folder's files one by one and the generated route manifest
 * loads page and island files by path, so they are exempt. Static imports, `export … from` and
 * `import("…")` with a relative specifier count; doc comments do not.
 *
 * Usage: `deno run --allow-read tools/check_mod_rule.ts [ROOT]` prints one line per breach and
 * exits 1 when there is any.
 *
 * @module
 */
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { printError } from "../lib/log.ts";

/** One breach of the rule. */
export interface Violation {
  /** The importing file or the `mod.ts` (relative to the root). */
  file: string;
  /** 1-based line of the statement. */
  line: number;
  /** What is wrong, in one sentence. */
  message: string;
}

/** An import or re-export of a relative specifier. */
export interface ImportRef {
  /** The specifier as written. */
  specifier: string;
  /** 1-based line. */
  line: number;
  /** Offset of the statement in the text. */
  index: number;
  /** The whole statement (up to and including the specifier's closing quote). */
  statement: string;
  /** `import`, `export` or `dynamic`. */
  kind: "import" | "export" | "dynamic";
}

/** Paths (relative to the root, `/`-separated) whose files the rule does not check. */
export const EXEMPT: readonly string[] = ["tests/", "perf/", "manifest.gen.ts"];

const SKIP_DIRS = new Set([
  "node_modules",
  "dist",
  "cov",
  "logs",
  "test-artifacts",
  "_islands",
]);

const STATIC =
  /^(import|export)(?:\s+type)?\b([^;"'`]*?)\bfrom\s*(["'])(\.{1,2}\/[^"']*)\3|^import\s*(["'])(\.{1,2}\/[^"']*)\5/gm;
const DYNAMIC = /\bimport\(\s*(["'])(\.{1,2}\/[^"']*)\1\s*\)/g;

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The relative imports and re-exports of a module's text (doc comments left out). */
export function importsOf(text: string): ImportRef[] {
  const out: ImportRef[] = [];
  for (const m of text.matchAll(STATIC)) {
    const specifier = m[4] ?? m[6]!;
    const kind = m[1] === "export" ? "export" : "import";
    out.push({ specifier, line: lineOf(text, m.index), index: m.index, statement: m[0], kind });
  }
  for (const m of text.matchAll(DYNAMIC)) {
    const start = text.lastIndexOf("\n", m.index) + 1;
    const lead = text.slice(start, m.index).trimStart();
    if (lead.startsWith("*") || lead.startsWith("//") || lead.startsWith("/*")) continue;
    out.push({
      specifier: m[2]!,
      line: lineOf(text, m.index),
      index: m.index,
      statement: m[0],
      kind: "dynamic",
    });
  }
  return out.sort((a, b) => a.index - b.index);
}

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

/** The TypeScript files below `root` (relative paths), build output and dependencies left out. */
export function sourceFiles(root: string, dir = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(root, dir))) {
    const path = dir === "" ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory) {
      if (!e.name.startsWith(".") && !SKIP_DIRS.has(e.name)) out.push(...sourceFiles(root, path));
    } else if (e.isFile && /\.(ts|tsx)$/.test(e.name)) out.push(path);
  }
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

/** Resolves a relative specifier of `from` to a root-relative path. */
export function resolveSpecifier(from: string, specifier: string): string {
  return normalize(join(dirname(from), specifier)).replaceAll("\\", "/");
}

/** Every breach of the rule below `root`. */
export function checkModRule(root: string): Violation[] {
  const files = sourceFiles(root);
  const modDirs = new Set(files.filter((f) => f.endsWith("/mod.ts")).map((f) => dirname(f)));
  const out: Violation[] = [];
  for (const file of files) {
    const text = Deno.readTextFileSync(join(root, file));
    if (file.endsWith("/mod.ts") && !isExempt(file)) {
      const extra = nonReexports(text);
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
    if (isExempt(file)) continue;
    for (const ref of importsOf(text)) {
      const target = resolveSpecifier(file, ref.specifier);
      const entry = requiredEntry(file, target, modDirs);
      if (entry === null) continue;
      const spec = relative(dirname(file), entry).replaceAll("\\", "/");
      out.push({
        file,
        line: ref.line,
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
  const found = checkModRule(root);
  for (const v of found) printError(`${v.file}:${v.line}: ${v.message}`);
  if (found.length > 0) {
    printError(`check_mod_rule: ${found.length} breach(es) of the mod.ts rule`);
    Deno.exit(1);
  }
}
