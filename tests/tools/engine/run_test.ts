import assert from "node:assert/strict";
import { AppError } from "../../../lib/error.ts";
import type { CommandRunner } from "../../../tools/engine/run.ts";
import { runOrThrow } from "../../../tools/engine/run.ts";

const recorder = (code = 0) => {
  const calls: string[] = [];
  const runner: CommandRunner = (command, args) => {
    calls.push([command, ...args].join(" "));
    return Promise.resolve({ code, tail: ["last line"] });
  };
  return { runner, calls };
};

Deno.test("runOrThrow() includes the exit code and the last output lines", async () => {
  const { runner } = recorder(2);
  await assert.rejects(
    runOrThrow(runner, "build llama.cpp", "ninja", ["-C", "b"]),
    (err: unknown) =>
      err instanceof AppError &&
      /Cannot build llama\.cpp: 'ninja' exited with 2\nlast line/.test(err.message),
  );
});
