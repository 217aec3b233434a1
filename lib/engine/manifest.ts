/**
 * The manifest written beside the generated models (`models/manifest.json`): what each GGUF is,
 * how big, and how it was made. The demo and tests read it to know which model ids exist.
 *
 * @module
 */

import type { Llama2cConfig } from "./llama2c.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** Current manifest format. */
export const MANIFEST_VERSION = 1;

/** One generated model. */
export interface ManifestModel {
  /** Router model id (the file name without `.gguf`). */
  name: string;
  /** File name inside the models folder. */
  file: string;
  /** File size in bytes. */
  sizeBytes: number;
  /** Number of weights. */
  params: number;
  /** Tensor type of the weights. */
  quantization: "F32";
  /** GGUF `general.architecture`. */
  architecture: "llama";
  /** Context length recorded in the GGUF. */
  trainContext: number;
  /** Seed of the random weights. */
  seed: number;
  /** Shape of the source checkpoint. */
  config: Llama2cConfig;
  /** Vocabulary file the tokens were copied from. */
  vocabFrom: string;
}

/** The whole manifest. */
export interface EngineManifest {
  /** Format version ({@linkcode MANIFEST_VERSION}). */
  version: number;
  /** Fingerprint of the specs the models were generated from. */
  specs: string;
  /** llama.cpp commit of the converter. */
  llamaCppCommit: string;
  /** ISO time of generation. */
  createdAt: string;
  /** The models, smallest first. */
  models: ManifestModel[];
}

/**
 * Validates parsed JSON as a manifest.
 *
 * @throws {TypeError} naming the first field that is missing or has the wrong type
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest } from "./manifest.ts";
 * const m = parseManifest({ version: 1, specs: "x", llamaCppCommit: "c", createdAt: "t", models: [] });
 * assert.equal(m.models.length, 0);
 * ```
 */
export function parseManifest(value: unknown): EngineManifest {
  const m = asRecord(value, "manifest");
  if (m.version !== MANIFEST_VERSION) {
    throw new TypeError(`Cannot read manifest: unsupported version '${String(m.version)}'`);
  }
  const models = m.models;
  if (!Array.isArray(models)) throw new TypeError("Cannot read manifest: 'models' is not an array");
  return {
    version: MANIFEST_VERSION,
    specs: str(m, "specs"),
    llamaCppCommit: str(m, "llamaCppCommit"),
    createdAt: str(m, "createdAt"),
    models: models.map((entry, i) => parseModel(entry, `models[${i}]`)),
  };
}

function parseModel(value: unknown, where: string): ManifestModel {
  const m = asRecord(value, where);
  if (m.quantization !== "F32" || m.architecture !== "llama") {
    throw new TypeError(`Cannot read manifest: ${where} is not an F32 llama model`);
  }
  return {
    name: str(m, "name"),
    file: str(m, "file"),
    sizeBytes: num(m, "sizeBytes"),
    params: num(m, "params"),
    quantization: "F32",
    architecture: "llama",
    trainContext: num(m, "trainContext"),
    seed: num(m, "seed"),
    config: asRecord(m.config, `${where}.config`) as unknown as Llama2cConfig,
    vocabFrom: str(m, "vocabFrom"),
  };
}

function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new TypeError(`Cannot read manifest: ${where} is not an object`);
  }
  return value;
}

function str(m: Record<string, unknown>, key: string): string {
  const v = m[key];
  if (typeof v !== "string") throw new TypeError(`Cannot read manifest: '${key}' is not a string`);
  return v;
}

function num(m: Record<string, unknown>, key: string): number {
  const v = m[key];
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw new TypeError(`Cannot read manifest: '${key}' is not a number`);
  }
  return v;
}
