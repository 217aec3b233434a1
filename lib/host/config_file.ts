/**
 * The host's `config.yaml`: read with a cache keyed by the file's version stamp, changed through
 * serialised read-modify-write updates, written atomically (temp file + rename). Sections the
 * host does not know are kept as they are.
 *
 * @module
 */
import { dirname } from "node:path";
import { parse, stringify } from "yaml";
import { StorageError } from "../error.ts";
import { writeFileAtomic } from "../fs.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** The parsed document: a plain object. */
export type ConfigDoc = Record<string, unknown>;

/** File operations used by {@linkcode ConfigFile} (tests inject failures). */
export interface ConfigFs {
  readTextFile(path: string): Promise<string>;
  writeTextFile(path: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** A version stamp of the file (changes with every write), or null when it is missing. */
  mtime(path: string): Promise<string | null>;
}

/** The real file system. */
export const denoConfigFs: ConfigFs = {
  readTextFile: (p) => Deno.readTextFile(p),
  writeTextFile: (p, t) => Deno.writeTextFile(p, t, { mode: 0o600 }),
  rename: (a, b) => Deno.rename(a, b),
  remove: (p) => Deno.remove(p),
  async mtime(p) {
    try {
      const st = await Deno.stat(p);
      // Every save renames a new file into place, so the inode changes even within one ms.
      return `${st.mtime?.getTime() ?? 0}:${st.ino ?? 0}:${st.size}`;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return null;
      throw err;
    }
  },
};

/**
 * One YAML config file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConfigFile } from "./config_file.ts";
 * const dir = await Deno.makeTempDir();
 * const file = new ConfigFile(`${dir}/config.yaml`);
 * await file.update((doc) => { doc.server = { port: 5000 }; });
 * assert.equal(((await file.read()).server as { port: number }).port, 5000);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class ConfigFile {
  readonly path: string;
  #fs: ConfigFs;
  #cache: { mtime: string | null; doc: ConfigDoc } | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string, fs: ConfigFs = denoConfigFs) {
    this.path = path;
    this.#fs = fs;
  }

  /** The current document (a deep copy; `{}` when the file does not exist). */
  async read(): Promise<ConfigDoc> {
    const mtime = await this.#fs.mtime(this.path);
    if (this.#cache === null || this.#cache.mtime !== mtime) {
      this.#cache = { mtime, doc: mtime === null ? {} : await this.#parse() };
    }
    return structuredClone(this.#cache.doc);
  }

  /**
   * Applies `mutate` to a fresh copy of the document and writes it atomically; updates run one
   * after another. When the write fails the file on disk is the old one.
   */
  update(mutate: (doc: ConfigDoc) => void): Promise<ConfigDoc> {
    const run = async () => {
      this.#cache = null;
      const doc = await this.read();
      mutate(doc);
      await this.#write(doc);
      this.#cache = { mtime: await this.#fs.mtime(this.path), doc: structuredClone(doc) };
      return doc;
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => {});
    return next;
  }

  async #parse(): Promise<ConfigDoc> {
    const text = await this.#fs.readTextFile(this.path);
    let value: unknown;
    try {
      value = parse(text);
    } catch (err) {
      throw new StorageError(`Cannot read '${this.path}': invalid YAML`, { cause: err });
    }
    if (value === null || value === undefined) return {};
    if (!isPlainObject(value)) {
      throw new StorageError(`Cannot read '${this.path}': the top level must be a mapping`);
    }
    return value as ConfigDoc;
  }

  async #write(doc: ConfigDoc): Promise<void> {
    await Deno.mkdir(dirname(this.path), { recursive: true });
    const fs = this.#fs;
    try {
      await writeFileAtomic(this.path, stringify(doc), {
        fs: {
          write: (path, text) => fs.writeTextFile(path, String(text)),
          rename: (from, to) => fs.rename(from, to),
          remove: (path) => fs.remove(path),
        },
      });
    } catch (err) {
      throw new StorageError(`Cannot save '${this.path}'`, { cause: err });
    }
  }
}
