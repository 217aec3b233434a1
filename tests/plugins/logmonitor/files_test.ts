import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError } from "../../../lib/error.ts";
import { isValidLogName, resolveLogFile } from "../../../plugins/logmonitor/mod.ts";
import { listLogFiles } from "../../../plugins/logmonitor/files.ts";

async function logDirWithOutside() {
  const root = await Deno.makeTempDir();
  const logs = `${root}/logs`;
  await Deno.mkdir(logs);
  await Deno.writeTextFile(`${logs}/host.log`, "x\n");
  await Deno.writeTextFile(`${logs}/.hidden.log`, "x\n");
  await Deno.writeTextFile(`${root}/secret.log`, "secret\n");
  await Deno.symlink(`${root}/secret.log`, `${logs}/escape.log`);
  await Deno.symlink(`${logs}/host.log`, `${logs}/alias.log`);
  await Deno.mkdir(`${logs}/dir.log`);
  return { root, logs };
}

/** Names that must never resolve to anything but 400, 403 or 404. */
export const TRAVERSAL_CORPUS = [
  "../secret.log",
  "..%2Fsecret.log",
  "%2e%2e%2fsecret.log",
  "..\\secret.log",
  "logs/../../secret.log",
  "/etc/passwd",
  "/tmp/secret.log",
  "\\\\server\\share.log",
  ".hidden.log",
  ".",
  "..",
  "",
  "host.log\0.txt",
  "host\0.log",
  "escape.log",
  "dir.log",
  "host.txt",
  "host.log/",
  "C:\\secret.log",
  "\u202e.log",
  "a".repeat(300) + ".log",
];

Deno.test("isValidLogName() accepts plain .log names only", () => {
  assert.ok(isValidLogName("host.log"));
  assert.ok(isValidLogName("serial-2024.log"));
  for (
    const bad of [
      "../a.log",
      "a/b.log",
      "a\\b.log",
      ".a.log",
      "a.txt",
      ".log",
      "a\0.log",
      "",
      5,
      null,
    ]
  ) {
    assert.equal(isValidLogName(bad), false, JSON.stringify(bad));
  }
});

Deno.test("resolveLogFile() never escapes the log folder for any name of the traversal corpus", async () => {
  const { root, logs } = await logDirWithOutside();
  try {
    for (const name of TRAVERSAL_CORPUS) {
      try {
        const f = await resolveLogFile(logs, name);
        assert.ok(
          f.path.startsWith(await Deno.realPath(logs) + "/"),
          `${JSON.stringify(name)} resolved outside`,
        );
        assert.fail(`${JSON.stringify(name)} resolved to ${f.path}`);
      } catch (err) {
        assert.ok(err instanceof AppError, `${JSON.stringify(name)}: ${err}`);
        assert.ok(
          [400, 403, 404].includes(statusOf(err)),
          `${JSON.stringify(name)}: ${statusOf(err)}`,
        );
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("resolveLogFile() refuses a bad name, an escape and a missing file with the seed's messages", async () => {
  const { root, logs } = await logDirWithOutside();
  try {
    await assert.rejects(resolveLogFile(logs, "../secret.log"), {
      name: "UsageError",
      message: "Invalid filename",
    });
    await assert.rejects(resolveLogFile(logs, "escape.log"), {
      name: "ForbiddenError",
      message: "Access denied",
    });
    await assert.rejects(resolveLogFile(logs, "missing.log"), {
      name: "NotFoundError",
      message: "Log file not found",
    });
    await assert.rejects(resolveLogFile(logs, "dir.log"), { name: "NotFoundError" });
    const alias = await resolveLogFile(logs, "alias.log");
    assert.equal(
      alias.path,
      await Deno.realPath(`${logs}/host.log`),
      "a symlink inside the folder is fine",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("listLogFiles() lists regular files and links inside the folder, never a link outside, a hidden file or a folder", async () => {
  const { root, logs } = await logDirWithOutside();
  try {
    await Deno.writeTextFile(`${logs}/notes.txt`, "x\n");
    await Deno.writeTextFile(`${logs}/big.log`, "y".repeat(5000));
    const files = await listLogFiles(logs);
    assert.deepEqual(files?.map((f) => [f.name, f.size]), [
      ["alias.log", 2],
      ["big.log", 5000],
      ["host.log", 2],
    ]);
    const host = (await Deno.stat(`${logs}/host.log`)).mtime!.getTime() / 1000;
    assert.equal(files?.find((f) => f.name === "host.log")?.modified, host);
    assert.equal(await listLogFiles(`${root}/missing`), null);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
