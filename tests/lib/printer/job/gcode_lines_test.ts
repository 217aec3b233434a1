import assert from "node:assert/strict";
import { UnprocessableError } from "../../../../lib/error.ts";
import { gcodeLines, type GcodeLinesOptions } from "../../../../lib/printer/job/gcode_lines.ts";

const encoder = new TextEncoder();

/** The commands of `chunks` (strings or bytes), read as a stream. */
async function read(chunks: (string | Uint8Array)[], options?: GcodeLinesOptions) {
  const stream = ReadableStream.from(
    chunks.map((c) => typeof c === "string" ? encoder.encode(c) : c),
  );
  return (await Array.fromAsync(gcodeLines(stream, options))).flat();
}

Deno.test("gcodeLines() strips comments, blank lines, tabs and CRLF and counts bytes", async () => {
  const text = "; header\r\n\r\nG28\t; home\r\n   \nM104\tS200\nG1 X1 ; last, no newline";
  assert.deepEqual(await read([text]), [
    { command: "G28", lineNumber: 3, end: 24 },
    { command: "M104 S200", lineNumber: 5, end: 38 },
    { command: "G1 X1", lineNumber: 6, end: encoder.encode(text).length },
  ]);
});

Deno.test("gcodeLines() joins lines that chunks cut, even inside a UTF-8 character", async () => {
  const bytes = encoder.encode("M117 Grüße\nG1 X2\n");
  const cut = bytes.indexOf(0xc3) + 1; // inside ü
  const lines = await read([bytes.subarray(0, 3), bytes.subarray(3, cut), bytes.subarray(cut)]);
  assert.deepEqual(lines.map((l) => [l.command, l.end]), [["M117 Grüße", 13], ["G1 X2", 19]]);
});

Deno.test("gcodeLines() yields the commands of one chunk together", async () => {
  const batches = await Array.fromAsync(
    gcodeLines(ReadableStream.from([encoder.encode("G1\nG2\nG3"), encoder.encode("\nG4\n")])),
  );
  assert.deepEqual(batches.map((b) => b.map((l) => l.command)), [["G1", "G2"], ["G3", "G4"]]);
});

Deno.test("gcodeLines() keeps a long comment line's command and refuses a long command", async () => {
  const thumbnail = `G1 X1 ; ${"A".repeat(10_000)}\n`;
  assert.deepEqual((await read([thumbnail, "G28\n"], { maxLineBytes: 64 })).map((l) => l.end), [
    thumbnail.length,
    thumbnail.length + 4,
  ]);
  await assert.rejects(
    () => read(["G28\n", `G1 X${"1".repeat(100)}\n`], { maxLineBytes: 64 }),
    (err) =>
      err instanceof UnprocessableError && /line 2 of the file: it is longer than 64 bytes/
        .test(err.message),
  );
});

Deno.test("gcodeLines() refuses a line that is no single command, naming it", async () => {
  await assert.rejects(
    () => read(["G28\n\nN3 G1 X1*97\n"]),
    (err) => err instanceof UnprocessableError && /line 3 of the file/.test(err.message),
  );
  await assert.rejects(() => read(["G1\x00X1\n"]), UnprocessableError);
});

Deno.test("gcodeLines() cancels the stream when the reader stops early", async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull: (c) => c.enqueue(encoder.encode("G1 X1\n")),
    cancel: () => void (cancelled = true),
  });
  for await (const _batch of gcodeLines(stream)) break;
  assert.ok(cancelled);
});
