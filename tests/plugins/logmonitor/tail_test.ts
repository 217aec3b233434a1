import assert from "node:assert/strict";
import { ManualClock } from "../../_fake_clock.ts";
import { openLogFile } from "../../../plugins/logmonitor/files.ts";
import { lastLines, Tailer } from "../../../plugins/logmonitor/tail.ts";
import { CUT_MARK, MAX_ENTRY_CHARS } from "../../../plugins/logmonitor/entries.ts";

async function tailed(initial: string) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.log`;
  await Deno.writeTextFile(path, initial);
  const lines: string[] = [];
  const errors: unknown[] = [];
  const clock = new ManualClock();
  // A manual clock and no watch: the tests call poll() themselves.
  const tailer = new Tailer({
    open: () => openLogFile(dir, "t.log"),
    clock,
    pollMs: 60_000,
    fallbackPollMs: 60_000,
    chunkBytes: 64 * 1024,
    onLines: (l) => lines.push(...l),
    onError: (e) => errors.push(e),
  });
  await tailer.start();
  return {
    dir,
    clock,
    path,
    lines,
    errors,
    tailer,
    append: (s: string) => Deno.writeTextFile(path, s, { append: true }),
    async close() {
      await tailer.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("Tailer delivers only lines written after start, holding partial lines", async () => {
  const t = await tailed("old 1\nold 2\n");
  try {
    await t.append("new 1\nnew 2\r\npart");
    await t.tailer.poll();
    assert.deepEqual(t.lines, ["new 1", "new 2"]);
    await t.append("ial\n");
    await t.tailer.poll();
    assert.deepEqual(t.lines, ["new 1", "new 2", "partial"]);
  } finally {
    await t.close();
  }
});

Deno.test("Tailer follows a rotation and reads the new file from its beginning", async () => {
  const t = await tailed("a\n");
  try {
    await t.append("before rotation\n");
    await t.tailer.poll();
    await Deno.rename(t.path, `${t.path}.1`);
    await Deno.writeTextFile(t.path, "first of new\nsecond of new\n");
    await t.tailer.poll();
    assert.deepEqual(t.lines, ["before rotation", "first of new", "second of new"]);
    await t.append("third\n");
    await t.tailer.poll();
    assert.equal(t.lines.at(-1), "third");
  } finally {
    await t.close();
  }
});

Deno.test("Tailer restarts from the top after a truncation in place", async () => {
  const t = await tailed("a long first line that makes the file big\n");
  try {
    await Deno.truncate(t.path, 0);
    await t.append("after truncate\n");
    await t.tailer.poll();
    assert.deepEqual(t.lines, ["after truncate"]);
  } finally {
    await t.close();
  }
});

Deno.test("Tailer waits while the file is missing", async () => {
  const t = await tailed("x\n");
  try {
    await Deno.remove(t.path);
    await t.tailer.poll();
    await Deno.writeTextFile(t.path, "back\n");
    await t.tailer.poll();
    assert.deepEqual(t.lines, ["back"]);
  } finally {
    await t.close();
  }
});

Deno.test("lastLines() returns the last lines without reading the whole file", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(
      path,
      Array.from({ length: 300 }, (_, i) => `line ${i}`).join("\n") + "\n",
    );
    const last = await lastLines(path, 100);
    assert.equal(last.length, 100);
    assert.equal(last[0], "line 200");
    assert.equal(last.at(-1), "line 299");
    const small = await lastLines(path, 5, 30);
    assert.deepEqual(small.slice(-2), ["line 298", "line 299"]);
    assert.ok(small.every((l) => /^line \d+$/.test(l)), "no cut first line");
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("Tailer never streams a file swapped for a link to outside the folder", async () => {
  const t = await tailed("a\n");
  const outside = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(outside, "TOPSECRET\n");
    await t.append("mine\n");
    await t.tailer.poll();
    await Deno.remove(t.path);
    await Deno.symlink(outside, t.path);
    await Deno.writeTextFile(outside, "TOPSECRET 2\n", { append: true });
    for (let i = 0; i < 3; i++) await t.tailer.poll();
    assert.deepEqual(t.lines, ["mine"]);
    assert.equal(t.errors.length, 1, "the refusal is reported once");
    assert.match(String(t.errors[0]), /Access denied/);
    await Deno.remove(t.path);
    await Deno.writeTextFile(t.path, "real again\n");
    await t.tailer.poll();
    assert.deepEqual(t.lines, ["mine"], "no new try before the back-off delay");
    t.clock.advance(61_000);
    await t.tailer.poll();
    assert.deepEqual(
      t.lines,
      ["mine", "real again"],
      "a real file under the name is followed again",
    );
  } finally {
    await t.close();
    await Deno.remove(outside);
  }
});

Deno.test("Tailer re-verifies identity on every rotation while a swap races the reopen", async () => {
  const t = await tailed("");
  const outside = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(outside, "TOPSECRET\n");
    for (let round = 0; round < 200; round++) {
      const tmp = `${t.dir}/next`;
      if (round % 2 === 0) await Deno.writeTextFile(tmp, `line ${round}\n`);
      else await Deno.symlink(outside, tmp);
      await Promise.all([Deno.rename(tmp, t.path), t.tailer.poll()]);
      t.clock.advance(61_000); // past any back-off of a refused reopen
      await t.tailer.poll();
    }
    assert.ok(t.lines.length > 0);
    assert.ok(t.lines.every((l) => !l.includes("TOPSECRET")), "never streamed the outside file");
  } finally {
    await t.close();
    await Deno.remove(outside);
  }
});

Deno.test("Tailer cuts a long appended line as search does and reads past it in bounded chunks", async () => {
  const t = await tailed("");
  try {
    // 3 MiB in one line, read 64 KiB at a time: the whole append is read in one check.
    await t.append("a".repeat(3 * 1024 * 1024) + "\nafter\n");
    await t.tailer.poll();
    assert.equal(t.lines.length, 2);
    assert.equal(t.lines[0], "a".repeat(MAX_ENTRY_CHARS) + CUT_MARK);
    assert.equal(t.lines[1], "after");
  } finally {
    await t.close();
  }
});

Deno.test("Tailer ends a cut line that was still being written when the file rotates", async () => {
  const t = await tailed("");
  try {
    await t.append("b".repeat(200_000));
    await t.tailer.poll();
    assert.deepEqual(t.lines, []);
    await Deno.rename(t.path, `${t.path}.1`);
    await Deno.writeTextFile(t.path, "fresh\n");
    await t.tailer.poll();
    assert.deepEqual(t.lines, ["b".repeat(MAX_ENTRY_CHARS) + CUT_MARK, "fresh"]);
  } finally {
    await t.close();
  }
});

/**
 * A file handle whose stat, seek and read resolve at once (as microtasks), as a fast reader
 * could: a tail that only awaited them would never let a timer or another request run.
 */
function eagerFile(file: Deno.FsFile, reads: { n: number }): Deno.FsFile {
  return {
    stat: () => Promise.resolve(file.statSync()),
    seek: (offset: number, whence: Deno.SeekMode) => Promise.resolve(file.seekSync(offset, whence)),
    read: (p: Uint8Array) => {
      reads.n++;
      return Promise.resolve(file.readSync(p));
    },
    close: () => file.close(),
  } as unknown as Deno.FsFile;
}

Deno.test("Tailer lets a timer run between two chunks of a long line, even when reads resolve at once", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.log`;
  await Deno.writeTextFile(path, "");
  const reads = { n: 0 };
  const lines: string[] = [];
  const open = async () => {
    const opened = await openLogFile(dir, "t.log");
    return { file: eagerFile(opened.file, reads), path: opened.path };
  };
  const tailer = new Tailer({
    open,
    clock: new ManualClock(),
    pollMs: 60_000,
    fallbackPollMs: 60_000,
    chunkBytes: 64 * 1024,
    onLines: (l) => lines.push(...l),
  });
  try {
    await tailer.start();
    await Deno.writeTextFile(path, "a".repeat(2 * 1024 * 1024) + "\nafter\n", { append: true });
    let readsWhenTimerRan = -1;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        readsWhenTimerRan = reads.n;
        resolve();
      }, 0)
    );
    await tailer.poll();
    await timer;
    // 2 MiB and two short lines in 64 KiB chunks: 33 reads; the timer ran after the first.
    assert.ok(reads.n >= 33, `${reads.n} reads`);
    assert.ok(
      readsWhenTimerRan >= 1 && readsWhenTimerRan < reads.n,
      `the timer ran after ${readsWhenTimerRan} of ${reads.n} reads`,
    );
    assert.deepEqual(lines, ["a".repeat(MAX_ENTRY_CHARS) + CUT_MARK, "after"]);
  } finally {
    await tailer.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
