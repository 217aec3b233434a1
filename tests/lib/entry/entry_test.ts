import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BENCH_TRAY_URL,
  type EntryDeps,
  expandClusters,
  parseEntryArgs,
  runEntry,
} from "../../../lib/entry/mod.ts";
import { programPermissions } from "../../_helpers.ts";

interface Calls {
  programs: [string, string[]][];
  trays: [string, boolean][];
  /** Everything in order: "tray", "program", "stop". */
  order: string[];
  out: string[];
  err: string[];
}

function fakeDeps(files: string[], exitCode = 0): { deps: EntryDeps; calls: Calls } {
  const calls: Calls = { programs: [], trays: [], order: [], out: [], err: [] };
  const deps: EntryDeps = {
    root: "/app",
    exists: (p) => Promise.resolve(files.includes(p)),
    runProgram: (file, args) => {
      calls.programs.push([file, args]);
      calls.order.push("program");
      return Promise.resolve(exitCode);
    },
    startTray: (url, debug) => {
      calls.trays.push([url, debug]);
      calls.order.push("tray");
      return { stop: () => Promise.resolve(void calls.order.push("stop")) };
    },
    freePort: () => Promise.resolve(45678),
    benchmarkHelp: () => Promise.resolve("BENCH HELP"),
    out: (s) => void calls.out.push(s),
    err: (s) => void calls.err.push(s),
  };
  return { deps, calls };
}

const ALL = ["/app/cli.ts", "/app/webapp.ts"];

Deno.test("rule 1: --help and -h print the extended help then the benchmark's, exit 0, run nothing", async () => {
  for (const flag of ["--help", "-h", "-wh"]) {
    const { deps, calls } = fakeDeps(ALL);
    assert.equal(await runEntry(["--runs", "2", flag], deps), 0);
    assert.equal(calls.out.length, 2);
    assert.match(calls.out[0]!, /^localbench — benchmark local language models/);
    assert.equal(calls.out[1], "BENCH HELP");
    assert.deepEqual(calls.programs, []);
    assert.deepEqual(calls.trays, []);
  }
});

Deno.test("rule 2: --webapp drops the flag, picks a free port, starts the tray at the dashboard", async () => {
  const { deps, calls } = fakeDeps(ALL, 3);
  assert.equal(
    await runEntry(["--webapp", "--no-plugins"], deps),
    3,
    "exits with the web app's status",
  );
  assert.deepEqual(calls.programs, [["/app/webapp.ts", ["--no-plugins", "--port", "45678"]]]);
  assert.deepEqual(calls.trays, [["http://127.0.0.1:45678", false]]);
});

Deno.test("rule 2: the web port comes from --port, --port= or -p when given", async () => {
  for (
    const args of [["-w", "--port", "8123"], ["-w", "--port=8123"], ["-w", "-p", "8123", "-d"]]
  ) {
    const { deps, calls } = fakeDeps(ALL);
    await runEntry(args, deps);
    assert.deepEqual(calls.programs[0]![1], args.slice(1));
    assert.equal(calls.trays[0]![0], "http://127.0.0.1:8123");
  }
  const { deps, calls } = fakeDeps(ALL);
  await runEntry(["-wd", "--host", "::1", "--port", "9000"], deps);
  assert.deepEqual(calls.trays, [["http://[::1]:9000", true]]);
});

Deno.test("rule 2: a missing web app file is an error and exit 1", async () => {
  const { deps, calls } = fakeDeps(["/app/cli.ts"]);
  assert.equal(await runEntry(["-w"], deps), 1);
  assert.match(calls.err[0]!, /the web app is missing: \/app\/webapp\.ts/);
  assert.deepEqual(calls.programs, []);
});

Deno.test("rule 3: otherwise the tray points at localhost:1234 and the benchmark gets every argument", async () => {
  const { deps, calls } = fakeDeps(ALL, 2);
  assert.equal(await runEntry(["--runs", "1", "-d"], deps), 2);
  assert.deepEqual(calls.programs, [["/app/cli.ts", ["--runs", "1", "-d"]]]);
  assert.deepEqual(calls.trays, [[BENCH_TRAY_URL, true]]);
  assert.equal(BENCH_TRAY_URL, "http://localhost:1234");
});

Deno.test("the -- of `deno task start -- opts` is dropped before the rules apply", async () => {
  let { deps, calls } = fakeDeps(ALL);
  await runEntry(["--", "--runs", "1"], deps);
  assert.deepEqual(calls.programs, [["/app/cli.ts", ["--runs", "1"]]]);
  ({ deps, calls } = fakeDeps(ALL));
  await runEntry(["--", "-w", "--port", "8123"], deps);
  assert.deepEqual(calls.programs, [["/app/webapp.ts", ["--port", "8123"]]]);
});

Deno.test("rule 3: a missing benchmark file is an error and exit 1", async () => {
  const { deps, calls } = fakeDeps(["/app/webapp.ts"]);
  assert.equal(await runEntry([], deps), 1);
  assert.match(calls.err[0]!, /the benchmark is missing: \/app\/cli\.ts/);
});

Deno.test("expandClusters() splits only clusters of the entry script's letters", () => {
  assert.deepEqual(expandClusters(["-wd", "-dh", "-P", "-xy", "--runs"]), [
    "-w",
    "-d",
    "-d",
    "-h",
    "-P",
    "-xy",
    "--runs",
  ]);
});

Deno.test("parseEntryArgs() ignores invalid ports and refuses a port without a value", () => {
  assert.equal(parseEntryArgs(["-w", "--port", "0"]).port, null);
  assert.equal(parseEntryArgs(["-w", "--port", "70000"]).port, null);
  assert.equal(parseEntryArgs(["-w", "--port", "x"]).port, null);
  assert.throws(() => parseEntryArgs(["-w", "--port"]), /--port needs a value/);
  assert.equal(parseEntryArgs(["--port"]).port, null, "without --webapp the port is not read");
});

Deno.test("an option the entry script reads without its value is exit 2 with one line", async () => {
  const { deps, calls } = fakeDeps(ALL);
  assert.equal(await runEntry(["-w", "--host"], deps), 2);
  assert.deepEqual(calls.err, [
    "localbench: error: Cannot parse arguments: --host needs a value (write --host=VALUE for one that starts with '-')",
  ]);
  assert.deepEqual(calls.programs, []);
  assert.deepEqual(calls.trays, []);
});

Deno.test("the real dependencies find files and run a program with its exit code", async () => {
  const { systemEntryDeps } = await import("../../../lib/entry/mod.ts");
  const root = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(root, "cli.ts"), "Deno.exit(Deno.args.length);");
    await Deno.writeTextFile(join(root, "deno.json"), "{}");
    const deps = systemEntryDeps(root, () => Promise.resolve(""));
    assert.equal(await deps.exists(join(root, "cli.ts")), true);
    assert.equal(await deps.exists(join(root, "webapp.ts")), false);
    assert.equal(await deps.runProgram(join(root, "cli.ts"), ["a", "b", "c"]), 3);
    const port = await deps.freePort();
    assert.ok(port > 0 && port < 65536);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("rule 2: the tray gets the dashboard's token: configured, or generated and given to both", async () => {
  const seen: { env?: Record<string, string>; token?: string }[] = [];
  const { deps } = fakeDeps(ALL);
  const withToken: EntryDeps = {
    ...deps,
    newToken: () => "generated",
    runProgram: (_file, _args, env) => {
      seen.push({ env: env ?? {} });
      return Promise.resolve(0);
    },
    startTray: (_url, _debug, token) => {
      seen.push({ token: token ?? "" });
      return null;
    },
  };
  await runEntry(["-w"], withToken);
  assert.deepEqual(seen, [{ token: "generated" }, { env: { LOCALBENCH_WEB_TOKEN: "generated" } }]);
  seen.length = 0;
  await runEntry(["-w", "--token", "mine"], withToken);
  assert.deepEqual(seen, [{ token: "mine" }, { env: {} }], "a --token is kept and not overridden");
  seen.length = 0;
  await runEntry(["-w"], {
    ...withToken,
    env: (n) => n === "LOCALBENCH_WEB_TOKEN" ? "env" : undefined,
  });
  assert.deepEqual(seen, [{ token: "env" }, { env: {} }]);
});

Deno.test("the tray ends when the program it was started for ends, also after refused arguments", async () => {
  for (const [argv, code] of [[["--runs", "0"], 2], [["-w"], 0], [["--runs", "1"], 1]] as const) {
    const { deps, calls } = fakeDeps(ALL, code);
    assert.equal(await runEntry([...argv], deps), code);
    assert.deepEqual(calls.order, ["tray", "program", "stop"], argv.join(" "));
  }
  const { deps, calls } = fakeDeps(ALL);
  const failing: EntryDeps = { ...deps, runProgram: () => Promise.reject(new Error("spawn")) };
  await assert.rejects(runEntry([], failing), /spawn/);
  assert.deepEqual(calls.order, ["tray", "stop"], "stopped even when the program cannot start");
});

Deno.test("the entry script starts the tray with the permissions of `deno task tray`", async () => {
  const { TRAY_PERMISSIONS } = await import("../../../lib/entry/mod.ts");
  assert.deepEqual(programPermissions("tray"), TRAY_PERMISSIONS);
});
