/**
 * Reads the metadata header of a GGUF file (format versions 2 and 3, little-endian) far enough to
 * find one key, so a scalar value can be patched in place. Used to raise `llama.context_length` of
 * the generated models: the llama2.c converter always writes 128, and llama-server caps every slot
 * at the model's training context.
 *
 * @module
 */

/** GGUF metadata value types. */
export const GgufType = {
  U8: 0,
  I8: 1,
  U16: 2,
  I16: 3,
  U32: 4,
  I32: 5,
  F32: 6,
  Bool: 7,
  String: 8,
  Array: 9,
  U64: 10,
  I64: 11,
  F64: 12,
} as const;

const SCALAR_BYTES: Record<number, number> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};

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
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  let pos = 0;
  const need = (n: number) => {
    if (pos + n > bytes.length) {
      throw new TypeError("Cannot read GGUF metadata: the data ends too early");
    }
  };
  const u32 = () => (need(4), pos += 4, view.getUint32(pos - 4, true));
  const u64 = () => (need(8), pos += 8, Number(view.getBigUint64(pos - 8, true)));
  const str = () => {
    const len = u64();
    need(len);
    pos += len;
    return decoder.decode(bytes.subarray(pos - len, pos));
  };
  const skipValue = (type: number) => {
    if (type === GgufType.String) str();
    else if (type === GgufType.Array) {
      const itemType = u32();
      const count = u64();
      if (itemType === GgufType.String || itemType === GgufType.Array) {
        for (let i = 0; i < count; i++) skipValue(itemType);
      } else {
        const size = SCALAR_BYTES[itemType];
        if (size === undefined) {
          throw new TypeError(`Cannot read GGUF metadata: unknown type ${itemType}`);
        }
        need(size * count);
        pos += size * count;
      }
    } else {
      const size = SCALAR_BYTES[type];
      if (size === undefined) {
        throw new TypeError(`Cannot read GGUF metadata: unknown type ${type}`);
      }
      need(size);
      pos += size;
    }
  };
  need(4);
  if (decoder.decode(bytes.subarray(0, 4)) !== "GGUF") {
    throw new TypeError("Cannot read GGUF: bad magic");
  }
  pos = 4;
  const version = u32();
  if (version < 2 || version > 3) {
    throw new TypeError(`Cannot read GGUF: unsupported version ${version}`);
  }
  u64(); // tensor count
  const kvCount = u64();
  for (let i = 0; i < kvCount; i++) {
    const name = str();
    const type = u32();
    if (name === key) return { type, offset: pos };
    skipValue(type);
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
