/**
 * Reads the metadata header of a GGUF file (format versions 2 and 3, little-endian) far enough to
 * find one key, so a scalar value can be patched in place. Used to raise `llama.context_length` of
 * the generated models: the llama2.c converter always writes 128, and llama-server caps every slot
 * at the model's training context.
 *
 * @module
 */
import { GgufCursor, GgufType } from "../modelserver/mod.ts";

export { GgufType } from "../modelserver/mod.ts";

/** Where a key's value sits in the file. */
export interface GgufValueRef {
  /** Value type ({@linkcode GgufType}). */
  type: number;
  /** Byte offset of the value. */
  offset: number;
}

/**
 * Finds `key` in the metadata at the start of a GGUF file.
 *
 * @param bytes the file, or at least its whole metadata section
 * @returns where the value is, or `null` when the key is absent
 * @throws {TypeError} when the bytes are not GGUF or end inside the metadata
 */
export function findGgufKey(bytes: Uint8Array, key: string): GgufValueRef | null {
  const c = new GgufCursor(bytes);
  const { kvs } = c.header();
  for (let i = 0; i < kvs; i++) {
    const name = c.str();
    const type = c.u32();
    if (name === key) return { type, offset: c.pos };
    c.value(type);
  }
  return null;
}

/**
 * Overwrites the unsigned 32-bit value of `key` in a GGUF file on disk.
 *
 * @param headBytes how much of the file to read to find the key. @default 16 MiB
 * @throws {TypeError} when the key is missing or not a u32
 */
export async function patchGgufU32(
  path: string,
  key: string,
  value: number,
  headBytes = 16 << 20,
): Promise<void> {
  const file = await Deno.open(path, { read: true, write: true });
  try {
    const head = new Uint8Array(headBytes);
    let filled = 0;
    while (filled < head.length) {
      const n = await file.read(head.subarray(filled));
      if (n === null) break;
      filled += n;
    }
    const ref = findGgufKey(head.subarray(0, filled), key);
    if (!ref || ref.type !== GgufType.U32) {
      throw new TypeError(
        `Cannot patch '${key}' in '${path}': ${ref ? "not a u32" : "no such key"}`,
      );
    }
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint32(0, value, true);
    await file.seek(ref.offset, Deno.SeekMode.Start);
    for (let off = 0; off < 4;) off += await file.write(bytes.subarray(off));
  } finally {
    file.close();
  }
}
