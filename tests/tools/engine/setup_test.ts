import assert from "node:assert/strict";
import { findEngine } from "../../../lib/engine/find.ts";
import { findGgufKey } from "../../../lib/engine/gguf_meta.ts";
import { MODEL_CONTEXT_LENGTH, TINY_MODELS } from "../../../lib/engine/model_specs.ts";
import { LLAMA_CPP_COMMIT } from "../../../lib/engine/paths.ts";
import type { CommandRunner } from "../../../tools/engine/run.ts";
import { BUILD_TARGETS } from "../../../tools/engine/build.ts";
import { planBuild, runEngineSetup } from "../../../tools/engine/setup.ts";
import { enginePaths } from "../../../lib/engine/paths.ts";
import { readStampSync } from "../../../lib/engine/stamp.ts";
import { tinyGguf } from "../../lib/engine/fixtures.ts";

/** Plays npm, tar, git, cmake, ninja and the converter by creating the files they would. */
function fakeToolchain() {
  const calls: string[] = [];
  const ninjaTargets: string[][] = [];
  const ok = (tail: string[] = []) => Promise.resolve({ code: 0, tail });
  const runner: CommandRunner = async (command, args) => {
    const name = command.split("/").at(-1)!;
    calls.push(`${name} ${args[0] === "-c" ? args[2] : args[0]}`);
    if (name === "git" && args.includes("rev-parse")) {
      const dir = args[args.indexOf("-C") + 1]!;
      const cloned = await Deno.stat(`${dir}/.git`).then(() => true, () => false);
      return cloned ? ok([LLAMA_CPP_COMMIT]) : { code: 128, tail: [] };
    }
    if (name === "git") {
      const src = args.at(-1)!;
      await Deno.mkdir(`${src}/.git`, { recursive: true });
      await Deno.mkdir(`${src}/models`, { recursive: true });
      await Deno.writeTextFile(`${src}/models/ggml-vocab-llama-spm.gguf`, "vocab");
    }
    if (name === "ninja") {
      const bin = `${args[1]}/bin`;
      await Deno.mkdir(bin, { recursive: true });
      const targets = args.slice(3);
      ninjaTargets.push(targets);
      for (const b of targets) await Deno.writeTextFile(`${bin}/${b}`, `new ${b}`);
    }
    if (name === "llama-convert-llama2c-to-ggml") {
      const checkpoint = args[args.indexOf("--llama2c-model") + 1]!;
      assert.ok(
        (await Deno.stat(checkpoint)).size > 1_000_000,
        "checkpoint written before conversion",
      );
      await Deno.writeFile(args[args.indexOf("--llama2c-output-model") + 1]!, tinyGguf());
    }
    return ok();
  };
  return { runner, calls, ninjaTargets };
}

Deno.test("runEngineSetup() builds, installs and generates, then a second run does nothing", async () => {
  const root = await Deno.makeTempDir({ prefix: "localbench-setup-test-" });
  try {
    const { runner, calls, ninjaTargets } = fakeToolchain();
    const said: string[] = [];
    const options = {
      root,
      runner,
      find: (c: string) => `/usr/bin/${c}`,
      say: (l: string) => said.push(l),
    };
    const first = await runEngineSetup(options);
    assert.deepEqual([first.built, first.generated], [true, true]);
    assert.deepEqual(calls.slice(0, 6), [
      "npm pack",
      "tar -xzf",
      "git clone",
      "git -C",
      "cmake -S",
      "ninja -C",
    ]);
    assert.equal(calls.filter((c) => c.startsWith("llama-convert")).length, TINY_MODELS.length);
    assert.deepEqual(ninjaTargets, [[...BUILD_TARGETS]], "a fresh machine builds all in one go");
    assert.ok(BUILD_TARGETS.includes("llama-bench"));

    const engine = findEngine({ root });
    assert.ok(engine, "engine complete after setup");
    assert.deepEqual(engine.manifest.models.map((m) => m.name), TINY_MODELS.map((m) => m.name));
    const gguf = await Deno.readFile(`${engine.modelsDir}/${engine.manifest.models[0]!.file}`);
    const ref = findGgufKey(gguf, "llama.context_length")!;
    assert.equal(new DataView(gguf.buffer).getUint32(ref.offset, true), MODEL_CONTEXT_LENGTH);
    assert.equal(
      (await Array.fromAsync(Deno.readDir(root))).some((e) => e.name === "work"),
      false,
      "work/ removed",
    );

    const before = calls.length;
    const second = await runEngineSetup(options);
    assert.deepEqual([second.built, second.generated], [false, false]);
    assert.equal(calls.length, before, "no command ran the second time");

    await Deno.remove(`${engine.modelsDir}/tiny-b.gguf`);
    const third = await runEngineSetup(options);
    assert.deepEqual(
      [third.built, third.generated],
      [false, true],
      "a missing model is regenerated only",
    );

    const forced = await runEngineSetup({ ...options, force: true });
    assert.equal(forced.built, true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runEngineSetup() on an engine built before llama-bench was a target builds only llama-bench and keeps the rest", async () => {
  const root = await Deno.makeTempDir({ prefix: "localbench-setup-test-" });
  try {
    const { runner, calls, ninjaTargets } = fakeToolchain();
    const options = { root, runner, find: (c: string) => `/usr/bin/${c}`, say: () => {} };
    await runEngineSetup(options);
    const paths = enginePaths(root);
    const stamp = readStampSync(paths.stamp)!;
    const oldTargets = ["llama-server", "llama-convert-llama2c-to-ggml"];
    await Deno.writeTextFile(paths.stamp, JSON.stringify({ ...stamp, targets: oldTargets }));
    await Deno.remove(paths.bench);
    await Deno.writeTextFile(paths.server, "working server");
    assert.deepEqual(planBuild(paths), { full: false, targets: ["llama-bench"] });

    const before = calls.length;
    const result = await runEngineSetup(options);
    assert.deepEqual([result.built, result.generated], [true, false], "models kept");
    assert.deepEqual(ninjaTargets.at(-1), ["llama-bench"]);
    assert.equal(await Deno.readTextFile(paths.server), "working server", "server not replaced");
    assert.equal(await Deno.readTextFile(paths.bench), "new llama-bench");
    assert.deepEqual(readStampSync(paths.stamp)!.targets, [...BUILD_TARGETS]);
    assert.equal(
      calls.slice(before).filter((c) => c.startsWith("llama-convert")).length,
      0,
      "no model regenerated",
    );
    assert.deepEqual(planBuild(paths), { full: false, targets: [] }, "current afterwards");
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(paths.binDir))).map((e) => e.name).sort(),
      [...BUILD_TARGETS].sort(),
      "no temporary file left in bin/",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
