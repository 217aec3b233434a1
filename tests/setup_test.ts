import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";

/** A copy of setup.sh and the lock files in a temp dir, with recording fakes first on PATH. */
async function sandbox() {
  const root = await Deno.makeTempDir({ prefix: "localbench-setup-" });
  for (const f of ["setup.sh", "package.json", "deno.json", "deno.lock"]) {
    await Deno.copyFile(join(REPO_ROOT, f), join(root, f));
  }
  const bin = join(root, "fakebin");
  const record = join(root, "calls.txt");
  await Deno.mkdir(bin);
  for (const tool of ["npm", "deno", "apt-get", "sudo", "dnf", "pacman", "zypper", "apk"]) {
    const body = `#!/bin/sh\necho "${tool} $*" >> "${record}"\n` +
      (tool === "deno" ? `[ "$1" = "--version" ] && echo "deno 0.0.0 (fake)"\n` : "") + "exit 0\n";
    await Deno.writeTextFile(join(bin, tool), body, { mode: 0o755 });
  }
  return {
    root,
    bin,
    calls: async () => (await Deno.readTextFile(record).catch(() => "")).trim(),
    run: async (args: string[], env: Record<string, string> = {}) => {
      const out = await new Deno.Command("bash", {
        args: [join(root, "setup.sh"), ...args],
        cwd: root,
        env: { PATH: `${bin}:/usr/sbin:/usr/bin:/sbin:/bin`, HOME: root, ...env },
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const dec = new TextDecoder();
      return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const st = await Deno.lstat(join(dir, e.name));
    out.push(`${e.name}:${st.size}:${st.mtime?.getTime()}`);
  }
  return out.sort();
}

Deno.test("setup.sh --help prints the usage and exits 0 without a log", async () => {
  await using box = await sandbox();
  const res = await box.run(["--help"]);
  assert.equal(res.code, 0);
  assert.match(
    res.stdout,
    /Usage: \.\/setup\.sh \[--help\] \[--dry-run\] \[--yes\] \[--interactive\]/,
  );
  await assert.rejects(Deno.stat(join(box.root, "logs")));
});

Deno.test("setup.sh with an unknown flag prints the usage and exits 2", async () => {
  await using box = await sandbox();
  const res = await box.run(["--frobnicate"]);
  assert.equal(res.code, 2);
  assert.match(res.stderr, /unknown argument: --frobnicate/);
  assert.match(res.stderr, /Usage:/);
});

Deno.test("setup.sh --dry-run changes nothing but its log and link under logs/", async () => {
  await using box = await sandbox();
  const before = await tree(box.root);
  const res = await box.run(["--dry-run"]);
  assert.equal(res.code, 0, res.stdout + res.stderr);
  const after = (await tree(box.root)).filter((e) => !/^(logs|calls\.txt):/.test(e));
  assert.deepEqual(after, before);
  assert.equal(await box.calls(), "deno --version", "only read-only commands ran");
  assert.match(res.stdout, /\[dry-run\] would run: npm ci/);
  assert.match(res.stdout, /\[dry-run\] would run: deno install --frozen/);
  const steps = [...res.stdout.matchAll(/==> (\d)\/8/g)].map((m) => m[1]);
  assert.deepEqual(steps, ["1", "2", "3", "4", "5", "6", "7", "8"]);
});

Deno.test("setup.sh writes logs/setup_<YYYYMMDD_HHMMSS>.log and the setup_latest.log link", async () => {
  await using box = await sandbox();
  const res = await box.run(["--dry-run"]);
  assert.equal(res.code, 0);
  const names = [];
  for await (const e of Deno.readDir(join(box.root, "logs"))) names.push(e.name);
  const log = names.find((n) => /^setup_\d{8}_\d{6}\.log$/.test(n));
  assert.ok(log, names.join(", "));
  assert.equal(await Deno.readLink(join(box.root, "logs", "setup_latest.log")), log);
  const text = await Deno.readTextFile(join(box.root, "logs", "setup_latest.log"));
  assert.match(text, /==> 8\/8 Next steps/);
  assert.match(text, /Setup finished/);
});

Deno.test("setup.sh exits 1 on a non-Linux system (SETUP_UNAME or a uname on PATH)", async () => {
  await using box = await sandbox();
  const viaEnv = await box.run(["--dry-run"], { SETUP_UNAME: "Darwin" });
  assert.equal(viaEnv.code, 1);
  assert.match(viaEnv.stdout, /supports Linux only \(this system: Darwin\)/);
  await Deno.writeTextFile(join(box.bin, "uname"), "#!/bin/sh\necho FreeBSD\n", { mode: 0o755 });
  const viaPath = await box.run(["--yes"]);
  assert.equal(viaPath.code, 1);
  assert.match(viaPath.stdout, /this system: FreeBSD/);
  assert.equal(await box.calls(), "");
});

Deno.test("setup.sh --yes installs from the lock files and answers optional prompts no", async () => {
  await using box = await sandbox();
  const fresh = await box.run(["--yes"]);
  assert.equal(fresh.code, 0, fresh.stdout);
  assert.match(
    await box.calls(),
    new RegExp(`npm ci --prefix ${box.root}\n.*deno install --frozen`),
  );
  await Deno.mkdir(join(box.root, "node_modules", "x"), { recursive: true });
  const again = await box.run(["--yes"]);
  assert.match(
    again.stdout,
    /Reinstall the dependencies from the lock files\? \[y\/N\] no \(yes\)/,
  );
  assert.doesNotMatch(again.stdout, /\$ npm ci/);
});
