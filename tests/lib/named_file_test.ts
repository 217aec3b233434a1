import assert from "node:assert/strict";
import { statusOf } from "../../lib/http/error_handler.ts";
import { AppError } from "../../lib/error.ts";
import {
  decodeSegments,
  isPlainName,
  isSameFile,
  openNamedFile,
  readNamedFile,
  resolveNamedFile,
} from "../../lib/named_file.ts";

async function folder() {
  const root = await Deno.makeTempDir();
  const dir = `${root}/served`;
  await Deno.mkdir(`${dir}/sub`, { recursive: true });
  await Deno.writeTextFile(`${dir}/a.txt`, "inside");
  await Deno.writeTextFile(`${dir}/sub/b.txt`, "nested");
  await Deno.writeTextFile(`${root}/secret.txt`, "outside");
  await Deno.symlink(`${root}/secret.txt`, `${dir}/escape.txt`);
  await Deno.symlink(`${dir}/a.txt`, `${dir}/alias.txt`);
  await Deno.symlink(root, `${dir}/up`);
  return { root, dir };
}

Deno.test("isPlainName() accepts one plain name and refuses paths, hidden and control names", () => {
  for (const ok of ["a.txt", "héllo wörld.log", "a%2Fb.txt", "a..b", "x".repeat(255)]) {
    assert.ok(isPlainName(ok), JSON.stringify(ok));
  }
  for (
    const bad of [
      "",
      ".",
      "..",
      ".env",
      "a/b",
      "a\\b",
      "a\0b",
      "a\nb",
      "a\u0085b",
      "\ud800.txt",
      "x".repeat(256),
      5,
      null,
    ]
  ) {
    assert.equal(isPlainName(bad), false, JSON.stringify(bad));
  }
});

Deno.test("decodeSegments() decodes each segment exactly once and refuses encoded separators", () => {
  assert.deepEqual(decodeSegments("a/b%20c.css"), ["a", "b c.css"]);
  assert.deepEqual(decodeSegments("%252e%252e%252fsecret"), ["%2e%2e%2fsecret"]);
  assert.deepEqual(decodeSegments("x%2523.wav"), ["x%23.wav"]);
  for (const bad of ["..%2Fetc", "%2e%2e", "a%5Cb", "a%00b", "%E0%A4%A", "a//b", ""]) {
    assert.equal(decodeSegments(bad), null, bad);
  }
});

Deno.test("openNamedFile() reads a plain name from the handle it verified", async () => {
  const { root, dir } = await folder();
  try {
    const f = await openNamedFile(dir, "a.txt", { pattern: /\.txt$/ });
    assert.equal(new TextDecoder().decode(await readNamedFile(f)), "inside");
    const alias = await openNamedFile(dir, "alias.txt");
    assert.equal(alias.path, await Deno.realPath(`${dir}/a.txt`), "a link inside stays inside");
    alias.file.close();
    const nested = await openNamedFile(dir, "sub/b.txt", { subfolders: true });
    assert.equal(new TextDecoder().decode(await readNamedFile(nested)), "nested");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("openNamedFile() answers 400, 403 and 404 with their codes", async () => {
  const { root, dir } = await folder();
  try {
    const cases: [string, number, string, object?][] = [
      ["../secret.txt", 400, "invalid_name"],
      ["sub/b.txt", 400, "invalid_name"],
      ["a.txt", 400, "invalid_name", { pattern: /\.log$/ }],
      ["up/secret.txt", 403, "access_denied", { subfolders: true }],
      ["escape.txt", 403, "access_denied"],
      ["missing.txt", 404, "not_found"],
      ["sub", 404, "not_found"],
      ["a.txt/x", 404, "not_found", { subfolders: true }],
    ];
    for (const [name, status, code, options] of cases) {
      await assert.rejects(openNamedFile(dir, name, options), (err) => {
        assert.ok(err instanceof AppError, `${name}: ${err}`);
        assert.equal(statusOf(err), status, name);
        assert.equal(err.code, code, name);
        return true;
      });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("resolveNamedFile() logs an escape as a [SECURITY] warning with the name cut short", async () => {
  const { root, dir } = await folder();
  const lines: string[] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (m: string) => lines.push(m),
    error() {},
    failure() {},
    child() {
      return logger;
    },
  };
  try {
    await assert.rejects(resolveNamedFile(dir, "escape.txt", { logger }), {
      name: "ForbiddenError",
    });
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^\[SECURITY\] path_traversal: "escape\.txt"$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("isSameFile() is false once the name points at another file or at a link", async () => {
  const { root, dir } = await folder();
  try {
    const f = await Deno.open(`${dir}/a.txt`);
    assert.equal(await isSameFile(f, `${dir}/a.txt`), true);
    assert.equal(await isSameFile(f, `${dir}/alias.txt`), false, "the name is a link");
    await Deno.rename(`${dir}/a.txt`, `${dir}/moved.txt`);
    await Deno.writeTextFile(`${dir}/a.txt`, "another");
    assert.equal(await isSameFile(f, `${dir}/a.txt`), false, "another inode");
    await Deno.remove(`${dir}/a.txt`);
    assert.equal(await isSameFile(f, `${dir}/a.txt`), false, "gone");
    f.close();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
