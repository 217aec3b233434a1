/**
 * A `multipart/form-data` upload read as a stream (npm `busboy`): the file part goes to the
 * caller as it arrives, never held whole in memory; the other fields are small and collected.
 * The body has its own cap here, for the routes that the web app's 8 MiB cap does not guard.
 *
 * @module
 */
import { Readable } from "node:stream";
// @ts-types="@types/busboy"
import busboy from "busboy";
import { AppError, TooLargeError, UsageError } from "../error.ts";

/** Options of {@linkcode readMultipart}. */
export interface MultipartOptions<T> {
  /** The name of the file part (`file`); other file parts are skipped. */
  fileField: string;
  /**
   * Takes the file part: its file name as sent (path included, not decoded further) and its
   * bytes. A rejection stops the upload with that error.
   */
  onFile(filename: string, data: ReadableStream<Uint8Array>): Promise<T>;
  /** Largest body read, in bytes (413 past it). */
  maxBytes: number;
}

/** An upload read to its end. */
export interface MultipartUpload<T> {
  /** The fields that are no files (at most 20, each at most 64 KiB). */
  fields: Record<string, string>;
  /** What `onFile` returned; null when there was no file part of that name. */
  file: T | null;
}

const FIELD_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 20 };

/**
 * Reads a `multipart/form-data` request to its end. The file part streams to `onFile`; its
 * result is returned once the whole body is read.
 *
 * @throws {UsageError} not multipart, no boundary, a malformed or unfinished body,
 * {TooLargeError} over `maxBytes` (declared or read); what `onFile` throws.
 */
export async function readMultipart<T>(
  request: Request,
  options: MultipartOptions<T>,
): Promise<MultipartUpload<T>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type) || !request.body) {
    throw new UsageError("Cannot read the upload: the body must be multipart/form-data", {
      code: "invalid_body",
    });
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > options.maxBytes) throw tooLarge(options.maxBytes);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      preservePath: true, // a name with a path is refused, not cut to its last part
      defParamCharset: "utf8",
      limits: FIELD_LIMITS,
    });
  } catch (err) {
    throw new UsageError(`Cannot read the upload: ${(err as Error).message}`, {
      code: "invalid_body",
    });
  }
  const input = Readable.fromWeb(
    request.body.pipeThrough(capped(options.maxBytes)) as import("node:stream/web").ReadableStream,
  );
  return await new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let taken: Promise<T> | null = null;
    let part: Readable | null = null;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      const error = err instanceof AppError ? err : new UsageError(
        `Cannot read the upload: it ended before it was complete`,
        { code: "upload_incomplete", cause: err },
      );
      part?.destroy(error);
      input.destroy();
      parser.destroy();
      // Answer once the file's taker has cleaned up (no partial file left behind).
      Promise.allSettled([taken]).then(() => reject(error));
    };
    parser.on("file", (name, stream, info) => {
      if (name !== options.fileField || taken) return void stream.resume();
      part = stream;
      taken = options.onFile(info.filename ?? "", Readable.toWeb(stream) as ReadableStream);
      taken.catch(fail);
    });
    parser.on("field", (name, value, info) => {
      if (!info.valueTruncated) fields[name] = value;
    });
    parser.on("error", fail);
    parser.on("close", () => {
      if (failed) return;
      (taken ?? Promise.resolve(null)).then((file) => resolve({ fields, file }), fail);
    });
    input.on("error", fail);
    input.pipe(parser);
  });
}

function tooLarge(maxBytes: number): AppError {
  return new TooLargeError(`Cannot read the upload: it is larger than ${maxBytes} bytes`, {
    code: "body_too_large",
  });
}

/** Passes bytes through, failing with a `TooLargeError` past `maxBytes`. */
function capped(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.length;
      if (seen > maxBytes) controller.error(tooLarge(maxBytes));
      else controller.enqueue(chunk);
    },
  });
}
