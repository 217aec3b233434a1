/**
 * The uploads folder: the G-code files the host prints. Files arrive as streams and are stored
 * atomically (a hidden temporary file, then a rename), never over the file being printed; names
 * are plain `*.gcode`, `*.gco` or `*.g` names, checked and opened through `lib/named_file.ts`.
 *
 * @module
 */
import { statfs } from "node:fs/promises";
import { join } from "node:path";
import { ConflictError, TooLargeError, UsageError } from "../error.ts";
import type { Logger } from "../log.ts";
import type { JobFile } from "./job/mod.ts";
import {
  isPlainName,
  type NamedFileOptions,
  openNamedFile,
  resolveNamedFile,
} from "../named_file.ts";

/** What a printable file's name looks like (after {@linkcode isPlainName}). */
export const GCODE_NAME = /\.(?:gcode|gco|g)$/i;

/** The largest upload by default: 1 GiB. */
export const MAX_UPLOAD_BYTES = 1024 ** 3;

/** A stored file. */
export interface UploadInfo {
  name: string;
  /** Bytes. */
  size: number;
  /** Last change, in seconds since the epoch (as OctoPrint's `date`). */
  date: number;
}

/** A stored file opened for reading (cancelling `readable` closes it). */
export interface OpenedUpload extends UploadInfo {
  readable: ReadableStream<Uint8Array>;
}

/** Options of {@linkcode UploadsFolder}. */
export interface UploadsFolderOptions {
  /** Largest file stored, in bytes. @default MAX_UPLOAD_BYTES */
  maxBytes?: number;
  /** Whether a file is being printed (it is then neither replaced nor deleted). @default never */
  inUse?: (name: string) => boolean;
  /** Where refused names that escape the folder are logged. @default none */
  logger?: Logger;
}

/** The folder of uploaded G-code files. */
export class UploadsFolder {
  /** The folder (created at the first upload). */
  readonly dir: string;
  /** Largest file stored, in bytes. */
  readonly maxBytes: number;
  readonly #inUse: (name: string) => boolean;
  readonly #named: NamedFileOptions;

  constructor(dir: string, options: UploadsFolderOptions = {}) {
    this.dir = dir;
    this.maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
    this.#inUse = options.inUse ?? (() => false);
    this.#named = {
      pattern: GCODE_NAME,
      logger: options.logger,
      invalid: "Invalid file name: a plain name ending in .gcode, .gco or .g",
      notFound: "No such file in the uploads folder",
    };
  }

  /** The stored files, by name. */
  async list(): Promise<UploadInfo[]> {
    const out: UploadInfo[] = [];
    try {
      for await (const entry of Deno.readDir(this.dir)) {
        if (!entry.isFile || !isPlainName(entry.name) || !GCODE_NAME.test(entry.name)) continue;
        const info = await Deno.lstat(join(this.dir, entry.name)).catch(() => null);
        if (info?.isFile) out.push(infoOf(entry.name, info));
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    return out.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  }

  /**
   * One stored file.
   *
   * @throws {UsageError} an invalid name, {ForbiddenError} outside the folder, {NotFoundError}.
   */
  async info(name: unknown): Promise<UploadInfo> {
    const file = await resolveNamedFile(this.dir, name, this.#named);
    return infoOf(file.name, file.info);
  }

  /**
   * Opens a stored file for printing.
   *
   * @throws as {@linkcode info}.
   */
  async open(name: unknown): Promise<OpenedUpload> {
    const file = await openNamedFile(this.dir, name, this.#named);
    return { ...infoOf(file.name, file.info), readable: file.file.readable };
  }

  /**
   * A stored file as a job's file: the runner opens it when it starts printing.
   *
   * @throws as {@linkcode info}.
   */
  async jobFile(name: unknown): Promise<JobFile> {
    const { name: checked, size } = await this.info(name);
    return { name: checked, size, open: () => this.open(checked) };
  }

  /**
   * Stores `data` as `name`, replacing a stored file of that name unless it is being printed.
   * Nothing is left behind when it fails (too large, the stream failed or stopped).
   *
   * @throws {UsageError} an invalid name, {ConflictError} `file_in_use`, {TooLargeError} over
   * `maxBytes`; what the stream throws.
   */
  async store(name: unknown, data: ReadableStream<Uint8Array>): Promise<UploadInfo> {
    if (!isPlainName(name) || !GCODE_NAME.test(name)) {
      await data.cancel().catch(() => {});
      throw new UsageError(this.#named.invalid!, { code: "invalid_name" });
    }
    this.#refuseInUse(name, "replace");
    await Deno.mkdir(this.dir, { recursive: true });
    const temp = join(this.dir, `.upload-${crypto.randomUUID()}.part`);
    try {
      const file = await Deno.open(temp, { write: true, createNew: true, mode: 0o644 });
      try {
        await this.#copy(data, file);
        await file.syncData();
      } finally {
        file.close();
      }
      this.#refuseInUse(name, "replace");
      await Deno.rename(temp, join(this.dir, name));
    } catch (err) {
      await Deno.remove(temp).catch(() => {});
      throw err;
    }
    return await this.info(name);
  }

  /**
   * Deletes a stored file.
   *
   * @throws as {@linkcode info}; {ConflictError} `file_in_use` while it is being printed.
   */
  async remove(name: unknown): Promise<void> {
    const file = await resolveNamedFile(this.dir, name, this.#named);
    this.#refuseInUse(file.name, "delete");
    await Deno.remove(join(this.dir, file.name)); // the entry itself, were it a link
  }

  /** Free and total bytes of the folder's file system; null when they cannot be read. */
  async space(): Promise<{ free: number; total: number } | null> {
    try {
      const fs = await statfs(this.dir);
      return { free: fs.bavail * fs.bsize, total: fs.blocks * fs.bsize };
    } catch {
      return null; // no folder yet, or no `--allow-sys=statfs`
    }
  }

  async #copy(data: ReadableStream<Uint8Array>, file: Deno.FsFile): Promise<void> {
    let size = 0;
    for await (const chunk of data) {
      size += chunk.length;
      if (size > this.maxBytes) {
        throw new TooLargeError(
          `Cannot store the file: it is larger than ${this.maxBytes} bytes`,
          { code: "file_too_large" },
        );
      }
      for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
    }
  }

  #refuseInUse(name: string, action: string): void {
    if (!this.#inUse(name)) return;
    throw new ConflictError(`Cannot ${action} ${name}: it is being printed`, {
      code: "file_in_use",
    });
  }
}

function infoOf(name: string, info: Deno.FileInfo): UploadInfo {
  return { name, size: info.size, date: Math.floor((info.mtime?.getTime() ?? 0) / 1000) };
}
