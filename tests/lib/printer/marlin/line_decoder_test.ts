import assert from "node:assert/strict";
import { type DecodedLine, LineDecoder } from "../../../../lib/printer/marlin/line_decoder.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const texts = (items: DecodedLine[]) => items.map((i) => i.type === "line" ? i.text : i);

Deno.test("LineDecoder ends lines at LF, CRLF and a lone CR, empty lines included", () => {
  const decoder = new LineDecoder();
  assert.deepEqual(texts(decoder.push(bytes("ok\nwait\r\nstart\recho:x\n\n"))), [
    "ok",
    "wait",
    "start",
    "echo:x",
    "",
  ]);
});

Deno.test("LineDecoder joins a line split across reads, a CRLF and a UTF-8 character too", () => {
  const decoder = new LineDecoder();
  const all = bytes("echo:Température 20°\r\nok\n");
  const out: DecodedLine[] = [];
  for (const byte of all) out.push(...decoder.push(Uint8Array.of(byte)));
  assert.deepEqual(texts(out), ["echo:Température 20°", "ok"]);
});

Deno.test("LineDecoder turns invalid UTF-8 into U+FFFD instead of failing", () => {
  const decoder = new LineDecoder();
  assert.deepEqual(texts(decoder.push(Uint8Array.of(0xff, 0xfe, 0x6f, 0x6b, 0x0a, 0xc3, 0x0a))), [
    "\uFFFD\uFFFDok",
    "\uFFFD",
  ]);
});

Deno.test("LineDecoder drops a line over the cap once, holds no more than the cap, and goes on", () => {
  const decoder = new LineDecoder({ maxLineBytes: 16 });
  const flood = bytes("A".repeat(1000));
  const out: DecodedLine[] = [];
  for (let i = 0; i < 100; i++) {
    out.push(...decoder.push(flood));
    assert.ok(decoder.buffered <= 16);
  }
  assert.deepEqual(out, [{ type: "overflow", bytes: 16 }], "reported once, not once per chunk");
  assert.deepEqual(texts(decoder.push(bytes("rest of the garbage\nok\n"))), ["ok"]);
  assert.equal(decoder.buffered, 0);
});

Deno.test("LineDecoder keeps a line of exactly the cap", () => {
  const decoder = new LineDecoder({ maxLineBytes: 4 });
  assert.deepEqual(texts(decoder.push(bytes("wait\nstart\n"))), [
    "wait",
    { type: "overflow", bytes: 4 },
  ]);
});

Deno.test("LineDecoder refuses a cap that is not a positive integer", () => {
  for (const maxLineBytes of [0, -1, 1.5, NaN]) {
    assert.throws(() => new LineDecoder({ maxLineBytes }), RangeError);
  }
});
