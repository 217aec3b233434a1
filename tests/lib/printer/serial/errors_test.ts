import assert from "node:assert/strict";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnreachableError,
  UsageError,
} from "../../../../lib/error.ts";
import {
  baudRateRefused,
  lineLost,
  openFailure,
  portNotFound,
} from "../../../../lib/printer/serial/errors.ts";
import { Errno } from "../../../../lib/printer/serial/libc.ts";

const port = (path: string) => ({ path, device: path, aliases: [] });
const none = () => Promise.resolve([]);

Deno.test("a missing port names the ports present, or says none is there", () => {
  assert.equal(
    portNotFound("/dev/ttyUSB0", [port("/dev/ttyACM0"), port("/dev/ttyUSB1")]).message,
    "No serial port at /dev/ttyUSB0. The ports present: /dev/ttyACM0, /dev/ttyUSB1.",
  );
  assert.match(
    portNotFound("/dev/ttyUSB0", []).message,
    /No serial port is present: is the printer plugged in/,
  );
});

Deno.test("each errno of opening a port is an error of its meaning", async () => {
  const cases = [
    [Errno.ENOENT, NotFoundError, "port_not_found"],
    [Errno.ENOTDIR, NotFoundError, "port_not_found"],
    [Errno.EACCES, ForbiddenError, "port_forbidden"],
    [Errno.EPERM, ForbiddenError, "port_forbidden"],
    [Errno.EBUSY, ConflictError, "busy"],
    [Errno.EAGAIN, ConflictError, "busy"],
    [Errno.EISDIR, UsageError, "not_a_serial_port"],
    [Errno.ENOTTY, UsageError, "not_a_serial_port"],
    [Errno.ENXIO, UnreachableError, "line_lost"],
    [Errno.EIO, UnreachableError, "line_lost"],
    [Errno.ENODEV, UnreachableError, "line_lost"],
    [Errno.EINVAL, UnreachableError, "port_error"],
  ] as const;
  for (const [errno, type, code] of cases) {
    const err = await openFailure("/dev/ttyUSB0", errno, none);
    assert.ok(err instanceof type, `errno ${errno}: ${err}`);
    assert.equal(err.code, code, `errno ${errno}`);
    assert.match(err.message, /\/dev\/ttyUSB0/);
  }
});

Deno.test("a lost line says what to check", () => {
  assert.match(
    lineLost("/dev/ttyUSB0", "the device hung up").message,
    /^The serial line \/dev\/ttyUSB0 was lost \(the device hung up\): is the USB cable plugged in/,
  );
});

Deno.test("an adapter refusing a listed rate is told apart from a port that is no serial port", () => {
  const err = baudRateRefused("/dev/ttyUSB0", 250000);
  assert.ok(err instanceof UsageError);
  assert.equal(err.code, "invalid_baud_rate");
  assert.equal(err.message, "/dev/ttyUSB0 does not run at 250000 baud: pick another rate");
});
