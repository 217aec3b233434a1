import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooLargeError,
  UsageError,
} from "../../../lib/error.ts";
import { UploadsFolder } from "../../../lib/printer/uploads.ts";

const encoder = new TextEncoder();

function streamOf(text: string): ReadableStream<Uint8Array> {
  return ReadableStream.from([encoder.encode(text)]);
}

/** An uploads folder in a temp folder; `printing` is the name in use. */
async function setUp(maxBytes?: number) {
  const root = await Deno.makeTempDir({ prefix: "lb_uploads_" });
  const state = { printing: null as string | null };
  const uploads = new UploadsFolder(join(root, "uploads"), {
    maxBytes,
    inUse: (name) => name === state.printing,
  });
  const entries = async () =>
    (await Array.fromAsync(Deno.readDir(uploads.dir))).map((e) => e.name).sort();
  return {
    root,
    uploads,
    state,
    entries,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test("UploadsFolder stores, lists, opens and deletes G-code files", async () => {
  await using t = await setUp();
  assert.deepEqual(await t.uploads.list(), [], "no folder yet");
  const stored = await t.uploads.store("b part.gcode", streamOf("G28\nG1 X1\n"));
  assert.equal(stored.name, "b part.gcode");
  assert.equal(stored.size, 10);
  assert.ok(Math.abs(stored.date - Date.now() / 1000) < 60);
  await t.uploads.store("a.g", streamOf("G28\n"));
  await t.uploads.store("c.GCO", streamOf(""));
  await Deno.writeTextFile(join(t.uploads.dir, "notes.txt"), "not G-code");
  await Deno.writeTextFile(join(t.uploads.dir, ".hidden.gcode"), "G28\n");
  assert.deepEqual((await t.uploads.list()).map((f) => [f.name, f.size]), [
    ["a.g", 4],
    ["b part.gcode", 10],
    ["c.GCO", 0],
  ]);
  const opened = await t.uploads.open("b part.gcode");
  assert.equal(await new Response(opened.readable).text(), "G28\nG1 X1\n");
  const job = await t.uploads.jobFile("a.g");
  assert.deepEqual([job.name, job.size], ["a.g", 4]);
  assert.equal(await new Response((await job.open()).readable).text(), "G28\n");
  await t.uploads.remove("a.g");
  await assert.rejects(() => t.uploads.info("a.g"), NotFoundError);
  assert.ok((await t.uploads.space())!.total > 0);
});

Deno.test("UploadsFolder refuses names that are not plain G-code names", async () => {
  await using t = await setUp();
  await t.uploads.store("ok.gcode", streamOf("G28\n"));
  const bad = [
    "../escape.gcode",
    "a/b.gcode",
    "a\\b.gcode",
    ".hidden.gcode",
    "nul\0.gcode",
    "line\n.gcode",
    "script.sh",
    "noext",
    "",
    "x".repeat(300) + ".gcode",
    42,
  ];
  for (const name of bad) {
    await assert.rejects(() => t.uploads.store(name, streamOf("G28\n")), UsageError, String(name));
    await assert.rejects(() => t.uploads.info(name), UsageError, String(name));
    await assert.rejects(() => t.uploads.remove(name), UsageError, String(name));
  }
  assert.deepEqual(await t.entries(), ["ok.gcode"]);
});

Deno.test("UploadsFolder never follows a link out of the folder", async () => {
  await using t = await setUp();
  await t.uploads.store("ok.gcode", streamOf("G28\n"));
  await Deno.writeTextFile(join(t.root, "secret.gcode"), "secret");
  await Deno.symlink(join(t.root, "secret.gcode"), join(t.uploads.dir, "link.gcode"));
  await assert.rejects(() => t.uploads.open("link.gcode"), ForbiddenError);
  await assert.rejects(() => t.uploads.remove("link.gcode"), ForbiddenError);
  assert.deepEqual((await t.uploads.list()).map((f) => f.name), ["ok.gcode"]);
});

Deno.test("UploadsFolder never replaces or deletes the file being printed", async () => {
  await using t = await setUp();
  await t.uploads.store("part.gcode", streamOf("G28\n"));
  t.state.printing = "part.gcode";
  await assert.rejects(() => t.uploads.remove("part.gcode"), ConflictError);
  await assert.rejects(() => t.uploads.store("part.gcode", streamOf("G1\n")), ConflictError);
  assert.equal(await Deno.readTextFile(join(t.uploads.dir, "part.gcode")), "G28\n");
  assert.deepEqual(await t.entries(), ["part.gcode"]);
  t.state.printing = null;
  await t.uploads.store("part.gcode", streamOf("G1\n"));
  assert.equal(await Deno.readTextFile(join(t.uploads.dir, "part.gcode")), "G1\n");
});

Deno.test("UploadsFolder leaves nothing behind from a file too large or a stream that fails", async () => {
  await using t = await setUp(1000);
  await t.uploads.store("keep.gcode", streamOf("G28\n"));
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull: (c) => void (pulled++, c.enqueue(new Uint8Array(300))),
  });
  await assert.rejects(() => t.uploads.store("big.gcode", endless), TooLargeError);
  assert.ok(pulled <= 5, "reading stopped at the cap");
  const broken = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(encoder.encode("G28\n"));
      c.error(new TypeError("connection reset"));
    },
  });
  await assert.rejects(() => t.uploads.store("keep.gcode", broken), TypeError);
  assert.deepEqual(await t.entries(), ["keep.gcode"]);
  assert.equal(await Deno.readTextFile(join(t.uploads.dir, "keep.gcode")), "G28\n", "unchanged");
});
