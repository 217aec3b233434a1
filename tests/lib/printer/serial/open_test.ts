import assert from "node:assert/strict";
import {
  ConflictError,
  NotFoundError,
  UnreachableError,
  UsageError,
} from "../../../../lib/error.ts";
import { LIBC_PATHS, openSerialTransport } from "../../../../lib/printer/serial/mod.ts";
import type { PrinterTransport } from "../../../../lib/printer/transport.ts";
import { REPO_ROOT, systemProgram } from "../../../_helpers.ts";
import { openPty } from "./_pty.ts";

/** Reads from `line` until what arrived includes `text`; returns it all. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string) {
  const decoder = new TextDecoder();
  let got = "";
  while (!got.includes(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the line ended before '${text}' (got '${got}')`);
    got += decoder.decode(value, { stream: true });
  }
  return got;
}

const encode = (text: string) => new TextEncoder().encode(text);
const SCRIPT = "tests/lib/printer/serial/_open_as.ts";

Deno.test("a pseudo-terminal carries bytes both ways and close() ends the readable", async () => {
  await using pty = await openPty();
  const line = await openSerialTransport(pty.path, { baudRate: 250000 });
  const reader = line.readable.getReader();
  await line.write(encode("N0 M110 N0*125\n"));
  await pty.received("N0 M110 N0*125\n");
  await pty.send("start\nok\n");
  assert.equal(await readUntil(reader, "ok\n"), "start\nok\n");
  await line.close();
  assert.deepEqual(await reader.read(), { value: undefined, done: true });
  await line.close(); // a second close does nothing
  await assert.rejects(line.write(encode("M105\n")), ConflictError);
});

Deno.test("a closed port opens again and still carries bytes", async () => {
  await using pty = await openPty();
  for (const command of ["M105\n", "M115\n"]) {
    const line = await openSerialTransport(pty.path, { baudRate: 115200 });
    await line.write(encode(command));
    await pty.received(command);
    await pty.send(`ok ${command}`);
    const reader = line.readable.getReader();
    await readUntil(reader, `ok ${command}`);
    reader.releaseLock();
    await line.close();
  }
});

Deno.test("a long write arrives whole and in order", async () => {
  await using pty = await openPty();
  const line = await openSerialTransport(pty.path, { baudRate: 250000 });
  const lines = Array.from({ length: 4000 }, (_, i) => `N${i} G1 X${i % 200} Y${i % 150}\n`);
  await Promise.all([
    line.write(encode(lines.slice(0, 2000).join(""))),
    line.write(encode(lines.slice(2000).join(""))),
  ]);
  assert.equal(await pty.received(lines.at(-1)!), lines.join(""));
  await line.close();
});

Deno.test("pulling the cable errors the readable and every write, and frees the port", async () => {
  await using pty = await openPty();
  const line = await openSerialTransport(pty.path, { baudRate: 250000 });
  const reader = line.readable.getReader();
  await pty.send("ok\n");
  await readUntil(reader, "ok\n");
  await pty.unplug();
  const lost = await reader.read().then(() => null, (err) => err);
  assert.ok(lost instanceof UnreachableError, String(lost));
  assert.match(lost.message, new RegExp(`serial line ${pty.path} was lost.*USB cable`));
  await assert.rejects(line.write(encode("M105\n")), UnreachableError);
  await line.close();
});

Deno.test("cancelling the readable closes the line", async () => {
  await using pty = await openPty();
  const line: PrinterTransport = await openSerialTransport(pty.path, { baudRate: 250000 });
  await line.readable.cancel();
  await assert.rejects(line.write(encode("M105\n")), ConflictError);
  await (await openSerialTransport(pty.path, { baudRate: 250000 })).close(); // not busy
});

Deno.test("a port this program holds is refused as busy", async () => {
  await using pty = await openPty();
  const line = await openSerialTransport(pty.path, { baudRate: 250000 });
  const err = await openSerialTransport(pty.path, { baudRate: 250000 }).catch((e) => e);
  assert.ok(err instanceof ConflictError && err.code === "busy", String(err));
  assert.match(err.message, /in use by another program.*close it/);
  await line.close();
});

Deno.test("a missing port, a file, a folder and /dev/null are refused with what they are", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "");
    const cases = [
      [`${dir}/ttyUSB9`, NotFoundError, new RegExp(`No serial port at ${dir}/ttyUSB9\\. `)],
      [`${dir}/file`, UsageError, /is not a serial port: it is a regular file/],
      [dir, UsageError, /is not a serial port: it is a folder/],
      ["/dev/null", UsageError, /is not a serial port: it is a device that is not a terminal/],
    ] as const;
    for (const [path, type, message] of cases) {
      await assert.rejects(openSerialTransport(path, { baudRate: 250000 }), (err) => {
        assert.ok(err instanceof type, `${path}: ${err}`);
        assert.match((err as Error).message, message);
        return true;
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a baud rate not in the list is refused before the port is touched", async () => {
  const err = await openSerialTransport("/dev/ttyUSB0", { baudRate: 12345 }).catch((e) => e);
  assert.ok(err instanceof UsageError && err.code === "invalid_baud_rate", String(err));
  assert.match(err.message, /12345 .*250000, 230400, 115200, 57600, 38400, 19200, 9600/);
});

/** The files `_open_as.ts` loads: copied where nobody may read them, wherever the clone is. */
const STAGED = ["lib/error.ts", "lib/printer/transport.ts", "lib/printer/serial", SCRIPT];

/** Runs `_open_as.ts` as the user nobody; what it printed. */
async function openAsNobody(path: string): Promise<Record<string, unknown>> {
  const home = await Deno.makeTempDir();
  try {
    await Deno.chmod(home, 0o777);
    const cp = await new Deno.Command("cp", {
      args: ["-r", "--parents", ...STAGED, home],
      cwd: REPO_ROOT,
    })
      .output();
    assert.ok(cp.success, new TextDecoder().decode(cp.stderr));
    const out = await new Deno.Command(systemProgram("setpriv"), {
      args: [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "--",
        Deno.execPath(),
        "run",
        "--no-config",
        "--no-lock",
        `--allow-ffi=${LIBC_PATHS.join(",")}`,
        `${home}/${SCRIPT}`,
        path,
        "250000",
      ],
      cwd: home,
      clearEnv: true,
      env: { HOME: home, DENO_DIR: `${home}/deno`, NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return JSON.parse(stdout);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const asRoot = { ignore: Deno.uid() !== 0 }; // only root can run a process as nobody

Deno.test({
  name: "a user without permission on the port is told to join the dialout group",
  ...asRoot,
  async fn() {
    await using pty = await openPty();
    await Deno.chmod(pty.device, 0o600);
    const got = await openAsNobody(pty.path);
    assert.equal(got.name, "ForbiddenError", JSON.stringify(got));
    assert.equal(got.code, "port_forbidden");
    assert.match(String(got.message), /sudo usermod -aG dialout \$USER`, then log in again/);
  },
});

Deno.test({
  name: "a port held here is busy for another user's programs, whether they lock or not",
  ...asRoot,
  async fn() {
    await using pty = await openPty();
    await Deno.chmod(pty.device, 0o666);
    assert.deepEqual(await openAsNobody(pty.path), { opened: true });
    const line = await openSerialTransport(pty.path, { baudRate: 250000 });
    const got = await openAsNobody(pty.path);
    assert.deepEqual([got.name, got.code], ["ConflictError", "busy"], JSON.stringify(got));
    const stty = await new Deno.Command(systemProgram("setpriv"), { // no lock of its own: TIOCEXCL
      args: ["--reuid=65534", "--regid=65534", "--clear-groups", "stty", "-F", pty.path],
      stdin: "null",
    }).output();
    assert.match(new TextDecoder().decode(stty.stderr), /Device or resource busy/);
    await line.close();
    assert.deepEqual(await openAsNobody(pty.path), { opened: true });
  },
});
