import assert from "node:assert/strict";
import { C, cString, type Libc, openLibc } from "../../../../lib/printer/serial/libc.ts";
import {
  applyLineSettings,
  isTerminal,
  lineSpeed,
} from "../../../../lib/printer/serial/line_settings.ts";
import { BAUD_RATES } from "../../../../lib/printer/serial/list.ts";
import { systemProgram } from "../../../_helpers.ts";
import { openPty } from "./_pty.ts";

/** What `stty -a` says of the tty at `path`. */
async function stty(...args: string[]): Promise<string> {
  const out = await new Deno.Command(systemProgram("stty"), { args, stdin: "null" }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** Runs `use` with `path` open through the C library. */
async function withFd(
  path: string,
  use: (fd: number, libc: Libc) => void | Promise<void>,
): Promise<void> {
  const libc = openLibc();
  const fd = libc.symbols.open(cString(path), C.O_RDWR | C.O_NOCTTY | C.O_NONBLOCK, 0);
  assert.ok(fd >= 0, `open ${path}`);
  try {
    await use(fd, libc);
  } finally {
    await libc.symbols.close(fd);
    libc.close();
  }
}

Deno.test("a cooked tty becomes raw 8N1 without flow control, dropping DTR on close", async () => {
  await using pty = await openPty();
  // a pseudo-terminal keeps cs8 and no parity whatever is asked: the rest starts wrong
  await stty("-F", pty.path, "sane", "crtscts", "ixon", "ixoff", "cstopb", "-hupcl", "-clocal");
  await withFd(pty.path, async (fd, libc) => {
    applyLineSettings(libc, fd, 115200);
    const settings = await stty("-F", pty.path, "-a");
    assert.match(settings, /speed 115200 baud/);
    const flags = new Set(settings.split(/[\s;]+/));
    for (
      const flag of [
        ...["cs8", "-parenb", "-cstopb", "cread", "clocal", "hupcl", "-crtscts"],
        ...["-ixon", "-ixoff", "-icrnl", "-inlcr", "-igncr", "-istrip", "-opost"],
        ...["-icanon", "-echo", "-isig", "-iexten"],
      ]
    ) assert.ok(flags.has(flag), `${flag} in ${settings}`);
    assert.match(settings, /min = 1; time = 0;/);
  });
});

Deno.test("every offered baud rate is set, 250000 (no standard speed) included", async () => {
  await using pty = await openPty();
  await withFd(pty.path, (fd, libc) => {
    for (const rate of BAUD_RATES) {
      applyLineSettings(libc, fd, rate);
      assert.equal(lineSpeed(libc, fd), rate);
    }
  });
});

Deno.test("a pseudo-terminal is a terminal and /dev/null is not", async () => {
  await using pty = await openPty();
  await withFd(pty.path, (fd, libc) => assert.equal(isTerminal(libc, fd), true));
  await withFd("/dev/null", (fd, libc) => assert.equal(isTerminal(libc, fd), false));
});
