/**
 * Generates the tiny random-weight GGUF models: a seeded llama2.c checkpoint per spec, converted by
 * `llama-convert-llama2c-to-ggml` with llama's real SentencePiece vocabulary, its context length
 * raised to {@linkcode MODEL_CONTEXT_LENGTH}, plus a manifest.
 *
 * @module
 */

import {
  type EngineManifest,
  ggufParamCount,
  LLAMA_CPP_COMMIT,
  MANIFEST_VERSION,
  type ManifestModel,
  MODEL_CONTEXT_LENGTH,
  type ModelSpec,
  patchGgufU32,
  specsFingerprint,
  VOCAB_FILE,
  writeLlama2cCheckpoint,
} from "../../lib/engine/mod.ts";
import { type CommandRunner, runOrThrow } from "./run.ts";

/** Options of {@linkcode generateModels}. */
export interface GenerateOptions {
  /** The converter binary. */
  converter: string;
  /** The vocabulary GGUF to copy tokens from. */
  vocab: string;
  /** Output folder for `<name>.gguf` and `manifest.json` (emptied of old GGUFs first). */
  modelsDir: string;
  /** Scratch folder for the checkpoints (deleted after conversion). */
  workDir: string;
  /** The models. */
  specs: readonly ModelSpec[];
  /** Progress output. */
  say: (line: string) => void;
  /** Converter log. */
  logFile?: string;
  /** Clock for `createdAt`. @default () => new Date() */
  now?: () => Date;
}

/**
 * Writes every model and `manifest.json`; returns the manifest.
 *
 * @throws {SetupError} when the converter fails
 */
export async function generateModels(
  runner: CommandRunner,
  options: GenerateOptions,
): Promise<EngineManifest> {
  const { modelsDir, workDir, say } = options;
  await Deno.mkdir(modelsDir, { recursive: true });
  await Deno.mkdir(workDir, { recursive: true });
  for await (const entry of Deno.readDir(modelsDir)) {
    if (entry.name.endsWith(".gguf")) await Deno.remove(`${modelsDir}/${entry.name}`);
  }
  const models: ManifestModel[] = [];
  for (const spec of options.specs) {
    const started = performance.now();
    const checkpoint = `${workDir}/${spec.name}.bin`;
    const file = `${spec.name}.gguf`;
    const out = await Deno.open(checkpoint, { create: true, write: true, truncate: true });
    try {
      await writeLlama2cCheckpoint(
        async (bytes) => {
          for (let off = 0; off < bytes.length;) off += await out.write(bytes.subarray(off));
        },
        spec.config,
        { seed: spec.seed },
      );
    } finally {
      out.close();
    }
    await runOrThrow(runner, `convert model '${spec.name}'`, options.converter, [
      "--copy-vocab-from-model",
      options.vocab,
      "--llama2c-model",
      checkpoint,
      "--llama2c-output-model",
      `${modelsDir}/${file}`,
    ], { cwd: workDir, ...(options.logFile ? { logFile: options.logFile } : {}) });
    await Deno.remove(checkpoint);
    await patchGgufU32(`${modelsDir}/${file}`, "llama.context_length", MODEL_CONTEXT_LENGTH);
    const sizeBytes = (await Deno.stat(`${modelsDir}/${file}`)).size;
    const params = ggufParamCount(spec.config);
    models.push({
      name: spec.name,
      file,
      sizeBytes,
      params,
      quantization: "F32",
      architecture: "llama",
      trainContext: MODEL_CONTEXT_LENGTH,
      seed: spec.seed,
      config: { ...spec.config },
      vocabFrom: VOCAB_FILE,
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    say(
      `models: ${file} ${formatMiB(sizeBytes)}, ${
        (params / 1e6).toFixed(2)
      } M params, F32 (${seconds} s)`,
    );
  }
  const manifest: EngineManifest = {
    version: MANIFEST_VERSION,
    specs: specsFingerprint(options.specs),
    llamaCppCommit: LLAMA_CPP_COMMIT,
    createdAt: (options.now ?? (() => new Date()))().toISOString(),
    models,
  };
  await Deno.writeTextFile(`${modelsDir}/manifest.json`, JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}

/** Formats bytes as MiB with one decimal, e.g. `16.6 MiB`. */
export function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
