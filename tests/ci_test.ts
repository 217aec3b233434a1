/**
 * `.ci/run`, `tools/ok.sh` and `tools/test.sh` with fake `npm`, `npx` and `deno`: the order of the
 * commands (install, the README's main command, the gate: fmt, lint, check, the tests with the doc
 * examples) and the one closing line, which counts every failed step.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, tempEnv } from "./_helpers.ts";

async function script(path: string, body: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, `#!/usr/bin/env bash\n${body}\n`);
  await Deno.chmod(path, 0o755);
}

async function bash(
  file: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  // A clean environment: the suite itself may run under .ci/run (LOCALBENCH_FAILED_BEFORE set).
  const r = await new Deno.Command("bash", {
    args: [file],
    cwd,
    env,
    clearEnv: true,
    stdout: "piped",
  }).output();
  return { code: r.code, out: new TextDecoder().decode(r.stdout) };
}

/** A copy of .ci/run in `root` whose npm/npx log their arguments; the demo fails when asked. */
async function fakeCi(root: string, demoCode: number): Promise<string> {
  await Deno.mkdir(join(root, "repo/.ci"), { recursive: true });
  await Deno.copyFile(join(REPO_ROOT, ".ci/run"), join(root, "repo/.ci/run"));
  const log = join(root, "calls.log");
  await script(join(root, "bin/npm"), `echo "npm $*" >> ${log}`);
  await script(
    join(root, "bin/npx"),
    `echo "npx $* before=\${LOCALBENCH_FAILED_BEFORE:-unset}" >> ${log}
     if [ "$3" = demo ]; then exit ${demoCode}; fi
     echo "tests: 5 passed, $LOCALBENCH_FAILED_BEFORE failed"`,
  );
  return log;
}

Deno.test(".ci/run installs, runs the README's main command, then deno task ok", async () => {
  await using t = await tempEnv();
  const log = await fakeCi(t.root, 0);
  const r = await bash(".ci/run", join(t.root, "repo"), {
    PATH: `${join(t.root, "bin")}:/usr/bin:/bin`,
  });
  assert.equal(r.code, 0);
  assert.deepEqual((await Deno.readTextFile(log)).trim().split("\n"), [
    "npm ci --no-audit --no-fund --loglevel=error",
    "npx deno task demo -- --runs 1 before=unset",
    "npx deno task ok before=0",
  ]);
  assert.equal(r.out.trim().split("\n").at(-1), "tests: 5 passed, 0 failed");
});

Deno.test(".ci/run still runs the tests after a failed main command and counts it", async () => {
  await using t = await tempEnv();
  const log = await fakeCi(t.root, 1);
  const r = await bash(".ci/run", join(t.root, "repo"), {
    PATH: `${join(t.root, "bin")}:/usr/bin:/bin`,
  });
  assert.match(await Deno.readTextFile(log), /npx deno task ok before=1/);
  assert.equal(r.out.trim().split("\n").at(-1), "tests: 5 passed, 1 failed");
});

Deno.test("tools/test.sh ends with one line that adds the failures counted before it", async () => {
  await using t = await tempEnv();
  const repo = join(t.root, "repo");
  await Deno.mkdir(join(repo, "tools"), { recursive: true });
  await Deno.copyFile(join(REPO_ROOT, "tools/test.sh"), join(repo, "tools/test.sh"));
  await script(join(repo, "tools/test_deps.sh"), "exit 0");
  await script(
    join(repo, "node_modules/.bin/deno"),
    `echo "$*" >> deno.log; echo "some output"; echo "ok | 7 passed | 0 failed | 2 ignored (1s)"`,
  );
  const env = { PATH: "/usr/bin:/bin" };
  let r = await bash("tools/test.sh", repo, env);
  assert.equal(r.code, 0);
  assert.match(await Deno.readTextFile(join(repo, "deno.log")), /^test --allow-all --doc$/m);
  assert.equal(r.out.trim().split("\n").at(-1), "tests: 7 passed, 0 failed, 2 skipped");
  r = await bash("tools/test.sh", repo, { ...env, LOCALBENCH_FAILED_BEFORE: "1" });
  assert.equal(r.code, 1);
  assert.equal(r.out.trim().split("\n").at(-1), "tests: 7 passed, 1 failed, 2 skipped");
});

/** A repo with tools/ok.sh and tools/test.sh whose fake deno fails the steps listed in FAIL. */
async function fakeOk(root: string): Promise<string> {
  const repo = join(root, "repo");
  await Deno.mkdir(join(repo, "tools"), { recursive: true });
  for (const f of ["tools/ok.sh", "tools/test.sh"]) {
    await Deno.copyFile(join(REPO_ROOT, f), join(repo, f));
  }
  await script(join(repo, "tools/test_deps.sh"), "exit 0");
  await script(
    join(repo, "node_modules/.bin/deno"),
    `echo "$*" >> deno.log
     case " \${FAIL:-} " in *" $1 "*) echo "$1: 3 problems"; exit 1;; esac
     if [ "$1" = test ]; then echo "ok | 7 passed | 0 failed (1s)"; fi`,
  );
  return repo;
}

Deno.test("tools/ok.sh runs fmt, lint and check before the tests and counts each failure", async () => {
  await using t = await tempEnv();
  const repo = await fakeOk(t.root);
  const env = { PATH: "/usr/bin:/bin" };
  let r = await bash("tools/ok.sh", repo, env);
  assert.equal(r.code, 0);
  assert.deepEqual((await Deno.readTextFile(join(repo, "deno.log"))).trim().split("\n"), [
    "fmt --check",
    "lint",
    "task check",
    "run -A tools/build.ts --no-manifest",
    "test --allow-all --doc",
  ]);
  assert.equal(r.out.trim().split("\n").at(-1), "tests: 7 passed, 0 failed");
  r = await bash("tools/ok.sh", repo, { ...env, FAIL: "fmt task" });
  assert.equal(r.code, 1);
  assert.equal(r.out.trim().split("\n").at(-1), "tests: 7 passed, 2 failed");
  r = await bash("tools/ok.sh", repo, { ...env, FAIL: "lint", LOCALBENCH_FAILED_BEFORE: "1" });
  assert.equal(r.code, 1);
  assert.equal(
    r.out.trim().split("\n").at(-1),
    "tests: 7 passed, 2 failed",
    "the main command too",
  );
});
