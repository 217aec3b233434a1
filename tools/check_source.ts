/**
 * Three rules the type checker cannot see (run by `deno task check`):
 *
 * 1. A doc example asserts with `node:assert`, never `console.assert` (it only prints, so an
 *    example with a wrong expected value would still pass `deno test --doc`). Every file counts.
 * 2. "Is this a JSON object?" is asked through `isPlainObject` (`lib/shared/json_object.ts`), not
 *    spelt out as a `typeof … "object"` test beside an `Array.isArray` test of the same value, in
 *    either order or negated. `tests/` is exempt. A check that only wants a non-null object (one
 *    that walks into arrays too) says so without `Array.isArray` and is left alone.
 * 3. A test file is named after what it tests (docs/contributing.md#tests):
 *    `tests/<path>/<name>_test.ts` tests `<path>/<name>.ts` (`.tsx`, `.sh`) or the folder
 *    `<path>/<name>/`, or the helper `tests/<path>/<name>.ts` beside it (a double of
 *    `tests/doubles/` only that). Scenario tests are exempt: `tests/e2e/`, `tests/security/` and
 *    {@linkcode SCENARIO_TESTS}.
 *
 * Usage: `deno run --allow-read tools/check_source.ts [ROOT]` prints `file:line: what` per breach
 * and exits 1 when there is any.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printError } from "../lib/log.ts";
import { sourceFiles } from "./import_graph.ts";

/** One breach. */
export interface Finding {
  /** Relative to the root. */
  file: string;
  /** 1-based. */
  line: number;
  message: string;
}

const JSDOC = /^[ \t]*\/\*\*[\s\S]*?\*\//gm;
const VALUE = String.raw`[\w$.?\[\]]+`;
const TYPEOF = (ref: string) => String.raw`typeof\s+${ref}\s*[!=]==\s*["']object["']`;
const IS_ARRAY = (ref: string) => String.raw`Array\.isArray\(\s*${ref}\s*\)`;
/** The two tests of one value within one expression (no `;`, `{` or `}` between them). */
const INLINE_PLAIN_OBJECT = new RegExp(
  `${TYPEOF(`(${VALUE})`)}[^;{}]{0,160}?${IS_ARRAY(String.raw`\1`)}|` +
    `${IS_ARRAY(`(${VALUE})`)}[^;{}]{0,160}?${TYPEOF(String.raw`\2`)}`,
  "g",
);
/** Where the one test lives. */
const HELPER = "lib/shared/json_object.ts";

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

/** The breaches of both rules in one file's text. */
export function checkText(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  for (const doc of text.matchAll(JSDOC)) {
    for (const m of doc[0].matchAll(/console\.assert\s*\(/g)) {
      out.push({
        file,
        line: lineAt(text, doc.index + m.index),
        message: "console.assert in a doc comment: assert with node:assert/strict (it fails)",
      });
    }
  }
  if (!file.startsWith("tests/") && file !== HELPER) {
    for (const m of text.matchAll(INLINE_PLAIN_OBJECT)) {
      out.push({
        file,
        line: lineAt(text, m.index),
        message: `an inline JSON-object test of '${m[1] ?? m[2]}': use isPlainObject (${HELPER})`,
      });
    }
  }
  return out;
}

/** Tests named by their scenario: no single source file or folder is under test. */
export const SCENARIO_TESTS: ReadonlySet<string> = new Set([
  "tests/boundaries_test.ts", // the layers' import rules
  "tests/ci_test.ts", // .ci/run, tools/ok.sh and tools/test.sh together
  "tests/docs_commands_test.ts",
  "tests/docs_links_test.ts",
  "tests/readme_commands_test.ts",
  "tests/lib/store/plans_test.ts", // the cost of every read of the store
  "tests/lib/store/plans_postgres_test.ts", // the same on PostgreSQL (its own plans)
]);

/** The paths (relative to the root) one of which a test file's name says it tests. */
export function testedPaths(test: string): string[] {
  const stem = test.replace(/^tests\//, "").replace(/_test\.tsx?$/, "");
  const beside = `tests/${stem}.ts`;
  if (stem.startsWith("doubles/")) return [beside];
  return [`${stem}.ts`, `${stem}.tsx`, `${stem}.sh`, `${stem}/`, beside];
}

/** The breach of rule 3 by one test file, given what exists below the root. */
export function checkTestName(file: string, exists: (path: string) => boolean): Finding[] {
  if (!/^tests\/.*_test\.tsx?$/.test(file) || SCENARIO_TESTS.has(file)) return [];
  if (/^tests\/(e2e|security)\//.test(file)) return [];
  const paths = testedPaths(file);
  if (paths.some(exists)) return [];
  return [{
    file,
    line: 1,
    message: `names nothing it could test (${paths.join(", ")}): name it after what it tests`,
  }];
}

function existsBelow(root: string): (path: string) => boolean {
  return (path) => {
    try {
      const stat = Deno.statSync(join(root, path));
      return path.endsWith("/") ? stat.isDirectory : stat.isFile;
    } catch {
      return false;
    }
  };
}

/** Every breach below `root`. */
export function checkSource(root: string): Finding[] {
  const exists = existsBelow(root);
  return sourceFiles(root).sort().flatMap((f) => [
    ...checkText(f, Deno.readTextFileSync(join(root, f))),
    ...checkTestName(f, exists),
  ]);
}

if (import.meta.main) {
  const found = checkSource(Deno.args[0] ?? fileURLToPath(new URL("../", import.meta.url)));
  for (const f of found) printError(`${f.file}:${f.line}: ${f.message}`);
  if (found.length > 0) {
    printError(`check_source: ${found.length} breach(es)`);
    Deno.exit(1);
  }
}
