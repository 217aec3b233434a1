import assert from "node:assert/strict";
import { AppError, UsageError } from "../../../lib/error.ts";
import { BUILD_TARGETS, CMAKE_FLAGS, progressReporter } from "../../../tools/engine/build.ts";
import type { CommandRunner } from "../../../tools/engine/run.ts";
import { runOrThrow } from "../../../tools/engine/run.ts";
import { ensureBuildTools, missingTools } from "../../../tools/engine/system_deps.ts";
import { parseSetupArgs } from "../../../tools/engine_setup.ts";

const recorder = (code = 0) => {
  const calls: string[] = [];
  const runner: CommandRunner = (command, args) => {
    calls.push([command, ...args].join(" "));
    return Promise.resolve({ code, tail: ["last line"] });
  };
  return { runner, calls };
};

Deno.test("CMAKE_FLAGS turn off every download and build only the server and the converter", () => {
  for (
    const flag of [
      "-DLLAMA_USE_PREBUILT_UI=OFF",
      "-DLLAMA_BUILD_UI=OFF",
      "-DLLAMA_OPENSSL=OFF",
      "-DGGML_NATIVE=OFF",
    ]
  ) {
    assert.ok(CMAKE_FLAGS.includes(flag), flag);
  }
  assert.deepEqual(BUILD_TARGETS, ["llama-server", "llama-convert-llama2c-to-ggml"]);
});

Deno.test("progressReporter() prints one line per tenth of Ninja's progress", () => {
  const said: string[] = [];
  const on = progressReporter((s) => said.push(s));
  for (let i = 1; i <= 200; i++) on(`[${i}/200] Building CXX object x.o`);
  on("ninja: no work to do.");
  assert.equal(said.length, 10);
  assert.equal(said.at(-1), "build: 100% (200/200)");
});

Deno.test("ensureBuildTools() installs missing tools with apt-get when root", async () => {
  const installed = new Set(["tar", "npm", "apt-get", "g++"]);
  const { runner, calls } = recorder();
  const wrapped: CommandRunner = (command, args, options) => {
    if (args[0] === "install") ["cmake", "ninja", "git"].forEach((c) => installed.add(c));
    return runner(command, args, options);
  };
  await ensureBuildTools(wrapped, {
    isRoot: true,
    find: (c) => (installed.has(c) ? c : null),
    say: () => {},
  });
  assert.equal(calls[0], "apt-get update -qq");
  assert.equal(calls[1], "apt-get install -y -qq --no-install-recommends cmake ninja-build git");
});

Deno.test("ensureBuildTools() tells a non-root user the apt-get command instead", async () => {
  const { runner, calls } = recorder();
  await assert.rejects(
    ensureBuildTools(runner, {
      isRoot: false,
      find: (c) => (c === "ninja" ? null : c),
      say: () => {},
    }),
    (err: unknown) =>
      err instanceof AppError && /not running as root/.test(err.message) &&
      /apt-get install -y ninja-build/.test(err.message),
  );
  assert.deepEqual(calls, []);
});

Deno.test("missingTools() lists nothing when everything is on PATH", () => {
  assert.deepEqual(missingTools((c) => `/usr/bin/${c}`), []);
});

Deno.test("runOrThrow() includes the exit code and the last output lines", async () => {
  const { runner } = recorder(2);
  await assert.rejects(
    runOrThrow(runner, "build llama.cpp", "ninja", ["-C", "b"]),
    (err: unknown) =>
      err instanceof AppError &&
      /Cannot build llama\.cpp: 'ninja' exited with 2\nlast line/.test(err.message),
  );
});

Deno.test("parseSetupArgs() reads --force, --keep-build and --jobs and rejects unknown flags", () => {
  assert.deepEqual(parseSetupArgs(["--force", "--jobs", "4"]), {
    force: true,
    keepBuild: false,
    help: false,
    jobs: 4,
  });
  assert.equal(parseSetupArgs(["--keep-build"]).keepBuild, true);
  assert.throws(() => parseSetupArgs(["--jobs", "0"]), UsageError);
  assert.throws(() => parseSetupArgs(["--fast"]), /unknown argument '--fast'/);
});
