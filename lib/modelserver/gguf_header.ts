/**
 * Reads the header of a GGUF model file (format versions 2 and 3, little-endian): the metadata
 * (architecture, context length, size label, file type) and the tensor shapes (parameter count,
 * dominant tensor type). A local llama.cpp server names its model files (`--model` in the
 * router's arguments, `model_path` in `/props`), so the benchmark knows a model's architecture,
 * parameters and context before loading it.
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

/** A metadata value: numbers, booleans and strings; arrays are skipped (null). */
export type GgufValue = number | boolean | string | null;

/** The bytes end inside the header: read more of the file and parse again. */
class TruncatedGgufError extends RangeError {}

/**
 * A sequential reader over GGUF bytes; throws a {@linkcode TruncatedGgufError} when the bytes end
 * too early.
 */

export class GgufCursor {
  pos = 0;
  readonly #view: DataView;
  readonly #bytes: Uint8Array;
  readonly #decoder = new TextDecoder();

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  need(n: number): void {
    if (this.pos + n > this.#bytes.length) {
      throw new TruncatedGgufError("Cannot read GGUF metadata: the data ends too early");
    }
  }

  u32(): number {
    this.need(4);
    this.pos += 4;
    return this.#view.getUint32(this.pos - 4, true);
  }

  u64(): number {
    this.need(8);
    this.pos += 8;
    return Number(this.#view.getBigUint64(this.pos - 8, true));
  }

  str(): string {
    const len = this.u64();
    this.need(len);
    this.pos += len;
    return this.#decoder.decode(this.#bytes.subarray(this.pos - len, this.pos));
  }

  /** Checks the magic and version; returns the tensor and metadata counts. */
  header(): { version: number; tensors: number; kvs: number } {
    this.need(4);
    if (this.#decoder.decode(this.#bytes.subarray(0, 4)) !== "GGUF") {
      throw new TypeError("Cannot read GGUF: bad magic");
    }
    this.pos = 4;
    const version = this.u32();
    if (version < 2 || version > 3) {
      throw new TypeError(`Cannot read GGUF: unsupported version ${version}`);
    }
    return { version, tensors: this.u64(), kvs: this.u64() };
  }

  /** Reads a value of `type`; arrays are skipped and read as null. */
  value(type: number): GgufValue {
    if (type === GgufType.String) return this.str();
    if (type === GgufType.Array) {
      const itemType = this.u32();
      const count = this.u64();
      if (itemType === GgufType.String || itemType === GgufType.Array) {
        for (let i = 0; i < count; i++) this.value(itemType);
      } else {
        const size = SCALAR_BYTES[itemType];
        if (size === undefined) {
          throw new TypeError(`Cannot read GGUF metadata: unknown type ${itemType}`);
        }
        this.need(size * count);
        this.pos += size * count;
      }
      return null;
    }
    const size = SCALAR_BYTES[type];
    if (size === undefined) throw new TypeError(`Cannot read GGUF metadata: unknown type ${type}`);
    this.need(size);
    const at = this.pos;
    this.pos += size;
    const v = this.#view;
    switch (type) {
      case GgufType.U8:
        return v.getUint8(at);
      case GgufType.I8:
        return v.getInt8(at);
      case GgufType.U16:
        return v.getUint16(at, true);
      case GgufType.I16:
        return v.getInt16(at, true);
      case GgufType.U32:
        return v.getUint32(at, true);
      case GgufType.I32:
        return v.getInt32(at, true);
      case GgufType.F32:
        return v.getFloat32(at, true);
      case GgufType.Bool:
        return v.getUint8(at) !== 0;
      case GgufType.U64:
        return Number(v.getBigUint64(at, true));
      case GgufType.I64:
        return Number(v.getBigInt64(at, true));
      default:
        return v.getFloat64(at, true);
    }
  }
}

/** One tensor's shape and type. */
export interface GgufTensor {
  name: string;
  dims: number[];
  type: number;
}

/** The parsed header. */
export interface GgufHeader {
  version: number;
  metadata: Map<string, GgufValue>;
  tensors: GgufTensor[];
}

/** Parses the metadata and tensor infos at the start of a GGUF file. */
export function parseGgufHeader(bytes: Uint8Array): GgufHeader {
  const c = new GgufCursor(bytes);
  const { version, tensors: tensorCount, kvs } = c.header();
  const metadata = new Map<string, GgufValue>();
  for (let i = 0; i < kvs; i++) {
    const name = c.str();
    metadata.set(name, c.value(c.u32()));
  }
  const tensors: GgufTensor[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = c.str();
    const nDims = c.u32();
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(c.u64());
    const type = c.u32();
    c.u64(); // data offset
    tensors.push({ name, dims, type });
  }
  return { version, metadata, tensors };
}

/** llama.cpp's file types (`general.file_type`). */
const FILE_TYPES: Record<number, string> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  7: "Q8_0",
  8: "Q5_0",
  9: "Q5_1",
  10: "Q2_K",
  11: "Q3_K_S",
  12: "Q3_K_M",
  13: "Q3_K_L",
  14: "Q4_K_S",
  15: "Q4_K_M",
  16: "Q5_K_S",
  17: "Q5_K_M",
  18: "Q6_K",
  19: "IQ2_XXS",
  20: "IQ2_XS",
  21: "Q2_K_S",
  22: "IQ3_XS",
  23: "IQ3_XXS",
  24: "IQ1_S",
  25: "IQ4_NL",
  26: "IQ3_S",
  27: "IQ3_M",
  28: "IQ2_S",
  29: "IQ2_M",
  30: "IQ4_XS",
  31: "IQ1_M",
  32: "BF16",
  36: "TQ1_0",
  37: "TQ2_0",
};

/** ggml tensor types, for a file without `general.file_type`. */
const TENSOR_TYPES: Record<number, string> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  6: "Q5_0",
  7: "Q5_1",
  8: "Q8_0",
  10: "Q2_K",
  11: "Q3_K",
  12: "Q4_K",
  13: "Q5_K",
  14: "Q6_K",
  16: "IQ2_XXS",
  17: "IQ2_XS",
  18: "IQ3_XXS",
  19: "IQ1_S",
  20: "IQ4_NL",
  21: "IQ3_S",
  22: "IQ2_S",
  23: "IQ4_XS",
  29: "IQ1_M",
  30: "BF16",
  34: "TQ1_0",
  35: "TQ2_0",
};

/** What the benchmark's filters need from a GGUF file. */
export interface GgufModelInfo {
  architecture: string | null;
  /** Training context (`<arch>.context_length`). */
  context_length: number | null;
  /** Sum of the tensors' elements. */
  params: number;
  /** `general.size_label` (e.g. `7B`) when present. */
  size_label: string | null;
  /** File type (`Q4_K_M`), else the type holding most elements. */
  quantization: string | null;
}

/** The filter fields of a parsed header. */
export function ggufModelInfo(h: GgufHeader): GgufModelInfo {
  const str = (k: string) => {
    const v = h.metadata.get(k);
    return typeof v === "string" && v !== "" ? v : null;
  };
  const arch = str("general.architecture");
  const ctx = arch ? h.metadata.get(`${arch}.context_length`) : undefined;
  const elements = h.tensors.map((t) => t.dims.reduce((a, b) => a * b, 1));
  const byType = new Map<number, number>();
  h.tensors.forEach((t, i) => byType.set(t.type, (byType.get(t.type) ?? 0) + elements[i]!));
  const dominant = [...byType.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const fileType = h.metadata.get("general.file_type");
  return {
    architecture: arch,
    context_length: typeof ctx === "number" ? ctx : null,
    params: elements.reduce((a, b) => a + b, 0),
    size_label: str("general.size_label"),
    quantization: typeof fileType === "number"
      ? FILE_TYPES[fileType] ?? null
      : dominant === undefined
      ? null
      : TENSOR_TYPES[dominant] ?? null,
  };
}

/**
 * Reads the header of the GGUF file at `path` (in growing chunks, up to `maxBytes`) and returns
 * its filter fields and size; null when the file cannot be read or is not GGUF.
 */
export async function readGgufInfo(
  path: string,
  maxBytes = 64 << 20,
): Promise<(GgufModelInfo & { size_bytes: number }) | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return null;
  }
  try {
    const size = (await file.stat()).size;
    let buf = new Uint8Array(0);
    for (let want = 1 << 20; buf.length < Math.min(size, maxBytes); want *= 4) {
      const next = new Uint8Array(Math.min(want, size, maxBytes));
      next.set(buf);
      let filled = buf.length;
      while (filled < next.length) {
        const n = await file.read(next.subarray(filled));
        if (n === null) break;
        filled += n;
      }
      buf = next.subarray(0, filled);
      try {
        return { ...ggufModelInfo(parseGgufHeader(buf)), size_bytes: size };
      } catch (err) {
        if (!(err instanceof TruncatedGgufError)) return null;
      }
    }
    return null;
  } catch {
    return null;
  } finally {
    file.close();
  }
}
