import assert from "node:assert/strict";
import { ConflictError, TooLargeError, UsageError } from "../../../lib/error.ts";
import { readMultipart } from "../../../lib/http/multipart.ts";

const B = "xBoundary";
const TYPE = `multipart/form-data; boundary=${B}`;

function part(name: string, value: string, filename?: string): string {
  const file = filename === undefined ? "" : `; filename="${filename}"`;
  return `--${B}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n${value}\r\n`;
}

function request(body: BodyInit, type = TYPE, headers: Record<string, string> = {}): Request {
  return new Request("http://x/upload", {
    method: "POST",
    headers: { "Content-Type": type, ...headers },
    body,
  });
}

/** Reads the file part as text. */
const asText = (filename: string, data: ReadableStream<Uint8Array>) =>
  new Response(data).text().then((text) => ({ filename, text }));

Deno.test("readMultipart() streams the file part to onFile and collects the fields", async () => {
  const body = part("select", "true") + part("file", "G28\r\nG1 X1\n", "a b.gcode") +
    part("other", "ignored file", "x.bin") + part("file", "second", "b.gcode") +
    part("print", "false") + `--${B}--\r\n`;
  const form = await readMultipart(request(body), {
    fileField: "file",
    onFile: asText,
    maxBytes: 1e6,
  });
  assert.deepEqual(form, {
    fields: { select: "true", print: "false" },
    file: { filename: "a b.gcode", text: "G28\r\nG1 X1\n" },
  });
});

Deno.test("readMultipart() keeps a file name's path and UTF-8 as sent", async () => {
  const body = part("file", "G28", "../dir/Grüße.gcode") + `--${B}--\r\n`;
  const form = await readMultipart(request(body), {
    fileField: "file",
    onFile: asText,
    maxBytes: 1e6,
  });
  assert.equal(form.file?.filename, "../dir/Grüße.gcode");
});

Deno.test("readMultipart() without a file part returns no file", async () => {
  const body = part("select", "true") + `--${B}--\r\n`;
  const form = await readMultipart(request(body), {
    fileField: "file",
    onFile: asText,
    maxBytes: 1e6,
  });
  assert.deepEqual(form, { fields: { select: "true" }, file: null });
});

Deno.test("readMultipart() refuses what is not a multipart form", async () => {
  const options = { fileField: "file", onFile: asText, maxBytes: 1e6 };
  for (const type of ["application/json", "multipart/form-data", "multipart/form-data; x=1"]) {
    await assert.rejects(() => readMultipart(request("{}", type), options), UsageError, type);
  }
});

Deno.test("readMultipart() stops at the cap, declared or read", async () => {
  const options = { fileField: "file", onFile: asText, maxBytes: 1000 };
  const big = part("file", "G".repeat(2000), "a.gcode") + `--${B}--\r\n`;
  await assert.rejects(() => readMultipart(request(big), options), TooLargeError);
  const declared = request(part("file", "G", "a.gcode"), TYPE, { "Content-Length": "5000" });
  await assert.rejects(() => readMultipart(declared, options), TooLargeError);
});

Deno.test("readMultipart() fails with onFile's error and on a body that ends early", async () => {
  let cleaned = false;
  const refuse = async (_name: string, data: ReadableStream<Uint8Array>) => {
    await data.cancel();
    cleaned = true;
    throw new ConflictError("in use");
  };
  const body = part("file", "G28\n".repeat(1000), "a.gcode") + `--${B}--\r\n`;
  await assert.rejects(
    () => readMultipart(request(body), { fileField: "file", onFile: refuse, maxBytes: 1e6 }),
    ConflictError,
  );
  assert.ok(cleaned);
  let seen: unknown = null;
  const keep = async (_name: string, data: ReadableStream<Uint8Array>) => {
    try {
      return await new Response(data).text();
    } catch (err) {
      seen = err;
      throw err;
    }
  };
  const cut =
    `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.gcode"\r\n\r\nG28`;
  await assert.rejects(
    () => readMultipart(request(cut), { fileField: "file", onFile: keep, maxBytes: 1e6 }),
    (err) => err instanceof UsageError && /ended before it was complete/.test(err.message),
  );
  assert.ok(seen !== null, "the file's reader saw the failure");
});
