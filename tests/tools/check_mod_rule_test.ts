import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { checkModRule, nonReexports } from "../../tools/check_mod_rule.ts";
import { REPO_ROOT, runDeno, tempEnv } from "../_helpers.ts";

async function tree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, dirname(path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
}

const SAMPLE: Record<string, string> = {
  "lib/a/mod.ts":
    '/** A.\n * @module\n */\nexport { x } from "./x.ts";\nexport type { N } from "./n/mod.ts";\n',
  "lib/a/x.ts": 'import { z } from "./n/z.ts";\nexport const x = z;\n',
  "lib/a/y.ts":
    'import { x } from "./x.ts";\nimport type { N } from "./n/mod.ts";\nexport const y: N = x;\n',
  "lib/a/n/mod.ts": 'export { z } from "./z.ts";\nexport type N = number;\n',
  "lib/a/n/z.ts": "export const z = 1;\n",
  "lib/b.ts": [
    "/**",
    ' * import { x } from "./a/x.ts";',
    " */",
    'import { x } from "./a/mod.ts";',
    'import {\n  z,\n} from "./a/n/mod.ts";',
    'export const b = async () => x + z + (await import("./a/y.ts")).y;',
    "",
  ].join("\n"),
  "tests/lib/a/x_test.ts": 'import { x } from "../../../lib/a/x.ts";\nconsole.log(x);\n',
  "perf/a.ts": 'import { z } from "../lib/a/n/z.ts";\nconsole.log(z);\n',
};

Deno.test("checkModRule() names every import that goes around a mod.ts, and a mod.ts with code", async () => {
  await using t = await tempEnv();
  await tree(t.root, SAMPLE);
  const found = (await checkModRule(t.root)).map((v) => `${v.file}:${v.line}`).sort();
  assert.deepEqual(found, [
    "lib/a/n/mod.ts:2", // a declaration in a mod.ts
    "lib/a/x.ts:1", // lib/a/x.ts is outside lib/a/n/: it must import ./n/mod.ts
    "lib/b.ts:7", // lib/a/n/mod.ts (the specifier's line) is inside lib/a/: outside it, only lib/a/mod.ts
    "lib/b.ts:8", // a dynamic import counts too
  ]);
  const messages = (await checkModRule(t.root)).map((v) => v.message).join("\n");
  assert.match(
    messages,
    /imports lib\/a\/n\/mod\.ts; outside lib\/a\/ import its mod\.ts \("\.\/a\/mod\.ts"\)/,
  );
  assert.match(messages, /a mod\.ts only re-exports/);
});

Deno.test("checkModRule() accepts the same tree once the imports go through the mod.ts files", async () => {
  await using t = await tempEnv();
  await tree(t.root, {
    ...SAMPLE,
    "lib/a/mod.ts":
      'export { x } from "./x.ts";\nexport { y } from "./y.ts";\nexport { type N, z } from "./n/mod.ts";\n',
    "lib/a/x.ts": 'import { z } from "./n/mod.ts";\nexport const x = z;\n',
    "lib/a/n/mod.ts": 'export { z } from "./z.ts";\nexport type { N } from "./n.ts";\n',
    "lib/a/n/n.ts": "export type N = number;\n",
    "lib/b.ts":
      'import { x, z } from "./a/mod.ts";\nexport const b = async () => x + z + (await import("./a/mod.ts")).y;\n',
  });
  assert.deepEqual(await checkModRule(t.root), []);
});

Deno.test("the check run as a command lists the breaches and exits 1", async () => {
  await using t = await tempEnv();
  await tree(t.root, SAMPLE);
  const r = await runDeno([
    "run",
    "--allow-read",
    "--allow-run",
    "tools/check_mod_rule.ts",
    t.root,
  ]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^lib\/b\.ts:7: imports lib\/a\/n\/mod\.ts/m);
  assert.match(r.stderr, /4 breach\(es\) of the mod\.ts rule/);
});

Deno.test("nonReexports() keeps docs and re-exports, and finds anything else", () => {
  assert.deepEqual(
    nonReexports('/**\n * @module\n */\n// note\nexport { a } from "./a.ts";\n'),
    [],
  );
  assert.deepEqual(
    nonReexports('export {\n  a,\n  b,\n} from "./a.ts";\nexport type * from "./t.ts";\n'),
    [],
  );
  assert.deepEqual(
    nonReexports('import { a } from "./a.ts";\nexport { a };\n').map((s) => s.line),
    [1, 2],
  );
});

Deno.test("the repository keeps the mod.ts rule", async () => {
  assert.deepEqual(await checkModRule(REPO_ROOT), []);
});
