/** Builds a fake engine directory (empty "binaries", a stamp and a manifest) for tests. */
import { GgufType } from "../../../lib/engine/gguf_meta.ts";
import { MANIFEST_VERSION } from "../../../lib/engine/manifest.ts";
import { enginePaths } from "../../../lib/engine/paths.ts";
import type { EngineStamp } from "../../../lib/engine/stamp.ts";

/** Writes a complete fake engine into a new temp dir and returns its root. */
export async function makeFakeEngine(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "localbench-engine-test-" });
  const p = enginePaths(root);
  await Deno.mkdir(p.binDir, { recursive: true });
  await Deno.mkdir(p.modelsDir, { recursive: true });
  await Deno.writeTextFile(p.server, "#!/bin/sh\n");
  await Deno.chmod(p.server, 0o755);
  const stamp: EngineStamp = {
    nodeLlamaCpp: "3.22.1",
    llamaCppCommit: "de3ff815ea7d559ee917f063901b8986f038abc6",
    cmakeFlags: ["-DGGML_NATIVE=OFF"],
    targets: ["llama-server"],
    builtAt: "2026-01-01T00:00:00.000Z",
    buildSeconds: 300,
  };
  await Deno.writeTextFile(p.stamp, JSON.stringify(stamp));
  await Deno.writeTextFile(`${p.modelsDir}/tiny-a.gguf`, "GGUF");
  await Deno.writeTextFile(
    p.manifest,
    JSON.stringify({
      version: MANIFEST_VERSION,
      specs: "00000000",
      llamaCppCommit: stamp.llamaCppCommit,
      createdAt: stamp.builtAt,
      models: [{
        name: "tiny-a",
        file: "tiny-a.gguf",
        sizeBytes: 4,
        params: 1,
        quantization: "F32",
        architecture: "llama",
        trainContext: 128,
        seed: 1,
        config: { dim: 4, hiddenDim: 8, layers: 1, heads: 1, kvHeads: 1, vocabSize: 10, seqLen: 4 },
        vocabFrom: "ggml-vocab-llama-spm.gguf",
      }],
    }),
  );
  return root;
}

/** Writes a GGUF v3 header with the given key/value entries (no tensors). */
export function ggufWith(entries: Array<[string, number, (w: Writer) => void]>): Uint8Array {
  const w = new Writer();
  w.raw(new TextEncoder().encode("GGUF"));
  w.u32(3);
  w.u64(0);
  w.u64(entries.length);
  for (const [key, type, value] of entries) {
    w.str(key);
    w.u32(type);
    value(w);
  }
  return w.bytes();
}

/** Little-endian byte writer for GGUF fixtures. */
export class Writer {
  #parts: number[] = [];
  raw(b: Uint8Array) {
    this.#parts.push(...b);
  }
  u32(v: number) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, true);
    this.raw(b);
  }
  u64(v: number) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
    this.raw(b);
  }
  str(s: string) {
    const b = new TextEncoder().encode(s);
    this.u64(b.length);
    this.raw(b);
  }
  bytes() {
    return new Uint8Array(this.#parts);
  }
}

/** A minimal GGUF as the llama2.c converter would write it (context length 128). */
export function tinyGguf(): Uint8Array {
  return ggufWith([
    ["general.architecture", GgufType.String, (w) => w.str("llama")],
    ["llama.context_length", GgufType.U32, (w) => w.u32(128)],
  ]);
}
