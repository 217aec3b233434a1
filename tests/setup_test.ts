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

async function hasCommand(name: string): Promise<boolean> {
  try {
    return (await new Deno.Command(name, { args: ["--version"], stdout: "null" }).output()).success;
  } catch {
    return false;
  }
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
  assert.match(res.stdout, /\.\/setup\.sh --service \[--system\] \[--dry-run\] \[-- HOST ARGS\]/);
  assert.match(
    res.stdout,
    /--service +write a systemd unit that runs `deno task host` \(Restart=on-failure\)/,
  );
  assert.match(res.stdout, /--system +a system unit \(\/etc\/systemd\/system/);
  await assert.rejects(Deno.stat(join(box.root, "logs")));
});

Deno.test("setup.sh passes shellcheck", {
  ignore: !(await hasCommand("shellcheck")),
}, async () => {
  const out = await new Deno.Command("shellcheck", {
    args: [join(REPO_ROOT, "setup.sh")],
    stdout: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stdout));
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

Deno.test("setup.sh --service --dry-run prints the user unit of deno task host and changes nothing", async () => {
  await using box = await sandbox();
  const before = await tree(box.root);
  const res = await box.run(
    ["--service", "--dry-run", "--", "--host", "0.0.0.0", "--port", "5000"],
    {
      LOCALBENCH_DATA_DIR: "/srv/lb",
    },
  );
  assert.equal(res.code, 0, res.stdout + res.stderr);
  const unitPath = `${box.root}/.config/systemd/user/localbench-host.service`;
  assert.match(res.stdout, new RegExp(`\\[dry-run\\] would write ${unitPath}:\n\\[Unit\\]\n`));
  for (
    const line of [
      "[Service]",
      `WorkingDirectory=${box.root}`,
      `Environment=PATH=${box.bin}:/usr/local/bin:/usr/bin:/bin`,
      "Environment=LOCALBENCH_DATA_DIR=/srv/lb",
      `ExecStart=${box.bin}/deno task host -- --host 0.0.0.0 --port 5000`,
      "Restart=on-failure",
      "RestartSec=5",
      "WantedBy=default.target",
    ]
  ) assert.ok(res.stdout.split("\n").includes(line), `${line} in\n${res.stdout}`);
  assert.doesNotMatch(res.stdout, /^User=/m, "a user unit runs as its user");
  assert.match(res.stdout, /\[dry-run\] would run: systemctl --user daemon-reload/);
  assert.match(
    res.stdout,
    /\[dry-run\] would run: systemctl --user enable --now localbench-host\.service/,
  );
  assert.match(res.stdout, /\[warn\] the pages are not built/);
  const after = (await tree(box.root)).filter((e) => !/^(logs|calls\.txt):/.test(e));
  assert.deepEqual(after, before);
  assert.equal(await box.calls(), "deno eval console.log(Deno.execPath())", "read-only");
  const log = await Deno.readTextFile(join(box.root, "logs", "setup_latest.log"));
  assert.match(log, /ExecStart=/);
});

Deno.test("setup.sh --service --system --dry-run prints a system unit run as the user", async () => {
  await using box = await sandbox();
  const res = await box.run(["--service", "--system", "--dry-run", "--", "--no-ui"], {
    SUDO_USER: "printer",
  });
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /would write \/etc\/systemd\/system\/localbench-host\.service:/);
  assert.match(res.stdout, /^User=printer$/m);
  assert.match(res.stdout, /^WantedBy=multi-user\.target$/m);
  assert.match(res.stdout, /would run: (sudo )?systemctl daemon-reload/);
  assert.doesNotMatch(res.stdout, /pages are not built/, "--no-ui needs no pages");
});

Deno.test("setup.sh --service enables and starts the user unit where systemd runs", async () => {
  await using box = await sandbox();
  const systemd = join(box.root, "run-systemd");
  await Deno.mkdir(systemd);
  for (const tool of ["systemctl", "loginctl"]) {
    await Deno.writeTextFile(
      join(box.bin, tool),
      `#!/bin/sh\necho "${tool} $*" >> "${box.root}/calls.txt"\n` +
        (tool === "loginctl" ? 'echo "Linger=no"\n' : "") + "exit 0\n",
      { mode: 0o755 },
    );
  }
  const res = await box.run(["--service"], { SETUP_SYSTEMD_RUN: systemd });
  assert.equal(res.code, 0, res.stdout + res.stderr);
  const unit = await Deno.readTextFile(
    join(box.root, ".config", "systemd", "user", "localbench-host.service"),
  );
  assert.match(unit, /^ExecStart=.*\/deno task host$/m);
  assert.match(unit, /^Restart=on-failure$/m);
  assert.match(
    unit,
    new RegExp(`^Environment=LOCALBENCH_DATA_DIR=${box.root}/\\.local/share/localbench$`, "m"),
  );
  assert.match(
    await box.calls(),
    /systemctl --user daemon-reload\nsystemctl --user enable --now localbench-host\.service\n/,
  );
  assert.match(res.stdout, /loginctl enable-linger/);
  assert.match(res.stdout, /journalctl --user -u localbench-host \| grep -A1 'Admin API key'/);
});

Deno.test("setup.sh --service refuses in one line without systemd or Linux, and --system alone is a usage error", async () => {
  await using box = await sandbox();
  const res = await box.run(["--service"], { SETUP_SYSTEMD_RUN: join(box.root, "nowhere") });
  assert.equal(res.code, 1);
  const errors = res.stdout.split("\n").filter((l) => l.includes("[error]"));
  assert.deepEqual(errors, [
    `  [error] --service needs systemd (systemctl and ${box.root}/nowhere): run deno task host another way`,
  ]);
  await assert.rejects(Deno.stat(join(box.root, ".config")));
  assert.equal(await box.calls(), "");
  const darwin = await box.run(["--service", "--dry-run"], { SETUP_UNAME: "Darwin" });
  assert.equal(darwin.code, 1);
  assert.match(
    darwin.stdout,
    /\[error\] localbench setup supports Linux only \(this system: Darwin\)/,
  );
  const usage = await box.run(["--system"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--system and host arguments go with --service/);
});
