/**
 * The steps of `deno task engine:setup`, in order, each skipped when its result is already there:
 * build tools → source from npm → build → install binaries and vocabulary → generate models →
 * stamp. A second run finds everything in place and only reports where it is.
 *
 * @module
 */

import { isFileSync } from "../../lib/fs.ts";
import {
  type EnginePaths,
  enginePaths,
  type EngineStamp,
  explainMissingEngine,
  findEngine,
  LLAMA_CPP_COMMIT,
  NODE_LLAMA_CPP_VERSION,
  parseManifest,
  readStampSync,
  specsFingerprint,
  TINY_MODELS,
  VOCAB_FILE,
} from "../../lib/engine/mod.ts";
import { BUILD_TARGETS, buildEngine, CMAKE_FLAGS, installBinaries } from "./build.ts";
import { fetchSource } from "./fetch_source.ts";
import { generateModels } from "./generate_models.ts";
import { acquireLock } from "./lock.ts";
import type { CommandRunner } from "./run.ts";
import { ensureBuildTools } from "./system_deps.ts";

/** Options of {@linkcode runEngineSetup}. */
export interface EngineSetupOptions {
  /** Engine directory. */
  root: string;
  /** Rebuild and regenerate even when up to date. @default false */
  force?: boolean;
  /** Keep the package, source and build tree in `work/` afterwards. @default false */
  keepBuild?: boolean;
  /** Compile jobs. @default navigator.hardwareConcurrency */
  jobs?: number;
  /** Command runner. */
  runner: CommandRunner;
  /** Finds build tools on PATH. @default findOnPath */
  find?: (command: string) => string | null;
  /** Progress output. */
  say: (line: string) => void;
}

/** What the setup did. */
export interface EngineSetupResult {
  /** The engine's files. */
  paths: EnginePaths;
  /** True when something was (re)built in this run (all targets, or only the missing ones). */
  built: boolean;
  /** True when the models were (re)generated in this run. */
  generated: boolean;
}

/**
 * Builds and generates what is missing.
 *
 * @throws when a tool is missing and cannot be installed, or a step fails
 */
export async function runEngineSetup(options: EngineSetupOptions): Promise<EngineSetupResult> {
  const paths = enginePaths(options.root);
  const say = options.say;
  await Deno.mkdir(paths.logDir, { recursive: true });
  const release = await acquireLock(`${paths.root}/setup.lock`, {
    onWait: (pid) => say(`waiting for another engine:setup (pid ${pid}) to finish`),
  });
  try {
    return await setUp(paths, options);
  } finally {
    await release();
  }
}

async function setUp(paths: EnginePaths, options: EngineSetupOptions): Promise<EngineSetupResult> {
  const { runner, say } = options;
  const force = options.force ?? false;
  const plan = force ? { full: true, targets: BUILD_TARGETS } : planBuild(paths);
  const built = plan.targets.length > 0;
  if (built) {
    const started = performance.now();
    const previous = plan.full ? null : readStampSync(paths.stamp);
    // A full build starts from no stamp; a partial one keeps the working binaries and their stamp.
    if (plan.full) await Deno.remove(paths.stamp).catch(() => undefined);
    else say(`build: only the missing target(s) ${plan.targets.join(", ")}`);
    await ensureBuildTools(runner, {
      say,
      logFile: `${paths.logDir}/apt.log`,
      ...(options.find ? { find: options.find } : {}),
    });
    const { srcDir } = await fetchSource(runner, {
      workDir: paths.workDir,
      say,
      logFile: `${paths.logDir}/fetch.log`,
    });
    const buildDir = `${paths.workDir}/build`;
    if (force) await Deno.remove(buildDir, { recursive: true }).catch(() => undefined);
    const builtBin = await buildEngine(runner, {
      srcDir,
      buildDir,
      say,
      targets: plan.targets,
      logFile: `${paths.logDir}/build.log`,
      ...(options.jobs ? { jobs: options.jobs } : {}),
    });
    await installBinaries(builtBin, paths.binDir, plan.targets);
    await Deno.mkdir(paths.vocabDir, { recursive: true });
    await Deno.copyFile(`${srcDir}/models/${VOCAB_FILE}`, `${paths.vocabDir}/${VOCAB_FILE}`);
    const seconds = Math.round((performance.now() - started) / 1000);
    const stamp: EngineStamp = {
      nodeLlamaCpp: NODE_LLAMA_CPP_VERSION,
      llamaCppCommit: LLAMA_CPP_COMMIT,
      cmakeFlags: [...CMAKE_FLAGS],
      targets: BUILD_TARGETS.filter((t) =>
        plan.targets.includes(t) || (previous?.targets.includes(t) ?? false)
      ),
      builtAt: new Date().toISOString(),
      buildSeconds: seconds + (previous?.buildSeconds ?? 0),
    };
    await writeStamp(paths.stamp, stamp);
    say(`build: done in ${seconds} s; installed ${plan.targets.join(", ")} in ${paths.binDir}`);
  }
  const generated = (built && plan.full) || !areModelsCurrent(paths);
  if (generated) {
    await generateModels(runner, {
      converter: paths.converter,
      vocab: `${paths.vocabDir}/${VOCAB_FILE}`,
      modelsDir: paths.modelsDir,
      workDir: `${paths.workDir}/checkpoints`,
      specs: TINY_MODELS,
      say,
      logFile: `${paths.logDir}/convert.log`,
    });
  }
  if (!options.keepBuild) {
    await Deno.remove(paths.workDir, { recursive: true }).catch(() => undefined);
  }
  const problem = explainMissingEngine({ root: paths.root });
  if (problem) throw new Error(problem);
  return { paths, built, generated };
}

/** A summary of the engine for the terminal. */
export function describeEngine(root: string): string[] {
  const engine = findEngine({ root });
  if (!engine) return [explainMissingEngine({ root }) ?? "engine missing"];
  const lines = [
    `llama-server: ${engine.server}`,
    `llama-bench:  ${isFileSync(engine.paths.bench) ? engine.paths.bench : "not built"}`,
    `models dir:   ${engine.modelsDir}`,
    `built:        llama.cpp ${
      engine.stamp.llamaCppCommit.slice(0, 7)
    } from node-llama-cpp@${engine.stamp.nodeLlamaCpp}, ` +
    `${engine.stamp.buildSeconds} s, ${engine.stamp.builtAt}`,
  ];
  for (const m of engine.manifest.models) {
    const mib = (m.sizeBytes / 1024 / 1024).toFixed(1);
    lines.push(
      `model:        ${m.name} (${m.file}, ${mib} MiB, ${
        (m.params / 1e6).toFixed(2)
      } M params, ${m.quantization})`,
    );
  }
  return lines;
}

/** What to build: nothing, the targets missing from a current build, or everything. */
export interface BuildPlan {
  /** True when the whole engine is (re)built: no current stamp, or its server or converter gone. */
  full: boolean;
  /** The Ninja targets to build (empty: the build is current). */
  targets: readonly string[];
}

/**
 * Compares the stamp and the installed binaries with {@linkcode BUILD_TARGETS}: a stamp of another
 * commit or other flags, or a missing server, converter or vocabulary, means a full build; a
 * current build that lacks a newer target (say, `llama-bench` added to the list) builds only that.
 */
export function planBuild(paths: EnginePaths): BuildPlan {
  const stamp = readStampSync(paths.stamp);
  const full = { full: true, targets: BUILD_TARGETS };
  if (!stamp || stamp.llamaCppCommit !== LLAMA_CPP_COMMIT) return full;
  if (stamp.cmakeFlags.join(" ") !== CMAKE_FLAGS.join(" ")) return full;
  if (![paths.server, paths.converter, `${paths.vocabDir}/${VOCAB_FILE}`].every(isFileSync)) {
    return full;
  }
  const targets = BUILD_TARGETS.filter((t) =>
    !stamp.targets.includes(t) || !isFileSync(`${paths.binDir}/${t}`)
  );
  return { full: false, targets };
}

async function writeStamp(path: string, stamp: EngineStamp): Promise<void> {
  const temp = `${path}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(temp, JSON.stringify(stamp, null, 2) + "\n");
  await Deno.rename(temp, path);
}

function areModelsCurrent(paths: EnginePaths): boolean {
  try {
    const manifest = parseManifest(JSON.parse(Deno.readTextFileSync(paths.manifest)));
    if (manifest.specs !== specsFingerprint(TINY_MODELS)) return false;
    return manifest.models.every((m) => isFileSync(`${paths.modelsDir}/${m.file}`));
  } catch {
    return false;
  }
}
