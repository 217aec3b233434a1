import assert from "node:assert/strict";
import {
  C,
  cString,
  Errno,
  errno,
  openLibc,
  peekCString,
} from "../../../../lib/printer/serial/libc.ts";
import { realPath } from "../../../../lib/printer/serial/list.ts";

Deno.test("errno is read right after a failing call", () => {
  const libc = openLibc();
  try {
    assert.equal(libc.symbols.open(cString("/nonexistent/tty"), C.O_RDWR, 0), -1);
    assert.equal(errno(libc), Errno.ENOENT);
    assert.equal(libc.symbols.open(cString("/"), C.O_RDWR, 0), -1);
    assert.equal(errno(libc), Errno.EISDIR);
  } finally {
    libc.close();
  }
});

Deno.test("C strings are read through memcpy, without pointer views", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const libc = openLibc();
  try {
    const address = BigInt(libc.symbols.realpath(cString("/"), 0n));
    assert.equal(peekCString(libc, address), "/");
    libc.symbols.free(address);
    await Deno.mkdir(`${dir}/é—ünïcode`);
    assert.equal(realPath(libc, `${dir}/./é—ünïcode`), `${dir}/é—ünïcode`);
  } finally {
    libc.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without FFI permission the setup error names the flag to add", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      new URL("./_open_as.ts", import.meta.url).pathname,
      "/dev/ttyUSB0",
    ],
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const got = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(got.name, "SetupError");
  assert.match(
    got.message,
    /needs the C library: run with --allow-ffi=\/lib\/x86_64-linux-gnu\/libc\.so\.6,/,
  );
});
