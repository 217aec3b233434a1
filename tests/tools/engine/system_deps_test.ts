import assert from "node:assert/strict";
import { AppError } from "../../../lib/error.ts";
import type { CommandRunner } from "../../../tools/engine/run.ts";
import { ensureBuildTools, missingTools } from "../../../tools/engine/system_deps.ts";

const recorder = (code = 0) => {
  const calls: string[] = [];
  const runner: CommandRunner = (command, args) => {
    calls.push([command, ...args].join(" "));
    return Promise.resolve({ code, tail: ["last line"] });
  };
  return { runner, calls };
};

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
