/**
 * The README's commands on a fresh clone, as a new user types them: `npm ci`, then the first
 * `npx deno task …` (which used to make Deno 2.9.5 panic while it laid node_modules out anew
 * under its own running binary), then every task with and without `--` before its options.
 *
 * The clone is of the committed tree (`git clone` of this checkout), so uncommitted changes are
 * not part of what is tested. `npm ci` needs the npm registry.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, tempEnv } from "./_helpers.ts";

interface Ran {
  code: number;
  out: string;
}

async function sh(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Ran> {
  const r = await new Deno.Command(cmd, {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(300_000),
  }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

/** What each task prints for `--help` (a line of its own help). */
const HELP_OF: Record<string, RegExp> = {
  bench: /Usage: localbench \[options\]/,
  start: /localbench — benchmark local language models/,
  demo: /localbench demo — benchmark two real tiny models/,
  tray: /localbench tray — a tray icon/,
  host: /Usage: deno task host/,
  webapp: /Usage: deno task webapp/,
};

Deno.test({
  name: "a fresh clone runs the README's first task right after npm ci, with and without --",
  sanitizeResources: false,
  async fn() {
    await using t = await tempEnv();
    const clone = join(t.root, "clone");
    const env = { ...t.vars, DISPLAY: "", WAYLAND_DISPLAY: "" };
    let r = await sh("git", ["clone", "-q", REPO_ROOT, clone], t.root, env);
    assert.equal(r.code, 0, r.out);
    r = await sh("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], clone, env);
    assert.equal(r.code, 0, r.out);
    // The install step built the web pages' island bundles (the servers never build them).
    for (const name of ["boot.js", "BenchmarkPanel.js", "logmonitor/LogViewer.js", "plugins.css"]) {
      assert.ok((await Deno.stat(join(clone, "static/_islands", name))).isFile, name);
    }

    // The README tour's first command (`deno task bench -- --help`) typed through npx the short
    // way, as the first task after npm ci (the one that used to panic).
    r = await sh("npx", ["deno", "task", "bench", "--help"], clone, env);
    assert.doesNotMatch(r.out, /panicked/);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, HELP_OF.bench!);

    for (const [task, help] of Object.entries(HELP_OF)) {
      for (const form of [["--", "--help"], ["--help"]]) {
        r = await sh("npx", ["deno", "task", task, ...form], clone, env);
        const shown = `npx deno task ${task} ${form.join(" ")}`;
        assert.equal(r.code, 0, `${shown}\n${r.out}`);
        assert.match(r.out, help, shown);
      }
    }
    // Nothing of the clone changed: npm ci and the tasks left both lock files as committed.
    r = await sh("git", ["status", "--porcelain"], clone, env);
    assert.equal(r.out.trim(), "");
  },
});
