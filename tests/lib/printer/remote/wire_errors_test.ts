import assert from "node:assert/strict";
import * as errors from "../../../../lib/error.ts";
import { statusOf } from "../../../../lib/http/error_handler.ts";
import * as printerErrors from "../../../../lib/printer/marlin/errors.ts";
import { badBaudRate, portForbidden } from "../../../../lib/printer/serial/errors.ts";
import { fromWireError, toWireError } from "../../../../lib/printer/remote/wire_errors.ts";

/** The same error after a trip across the socket. */
const across = (err: unknown) => fromWireError(JSON.parse(JSON.stringify(toWireError(err))));

Deno.test("every error class of lib/error.ts and of the printer comes back as itself", () => {
  const classes = ([...Object.values(errors), ...Object.values(printerErrors)] as unknown[])
    .filter((value): value is new (m: string) => errors.AppError =>
      typeof value === "function" && value.prototype instanceof errors.AppError
    );
  assert.ok(classes.length >= 18, `${classes.length} classes`);
  for (const type of classes) {
    const sent = new type("Something went wrong");
    const back = across(sent);
    assert.equal(back.constructor, type, type.name);
    assert.equal(back.message, "Something went wrong");
    assert.equal((back as errors.AppError).code, sent.code, type.name);
    assert.equal(statusOf(back), statusOf(sent), type.name);
  }
});

Deno.test("a ConflictError stays a ConflictError, with its precise code", () => {
  const back = across(new errors.ConflictError("Printer is printing", { code: "busy" }));
  assert.ok(back instanceof errors.ConflictError);
  assert.equal(back.code, "busy");
  assert.equal(statusOf(back), 409);
});

Deno.test("a PrinterHaltedError keeps its meaning: a conflict that says the firmware halted", () => {
  const back = across(new printerErrors.PrinterHaltedError("Printer halted: kill() called"));
  assert.ok(back instanceof printerErrors.PrinterHaltedError);
  assert.ok(back instanceof errors.ConflictError);
  assert.equal(back.code, "printer_halted");
  assert.equal(back.message, "Printer halted: kill() called");
});

Deno.test("the errors the serial port makes travel with their codes and statuses", () => {
  for (const sent of [portForbidden("/dev/ttyUSB0"), badBaudRate(12)]) {
    const back = across(sent) as errors.AppError;
    assert.equal(back.code, sent.code);
    assert.equal(statusOf(back), statusOf(sent));
    assert.match(back.message, sent.code === "port_forbidden" ? /dialout/ : /Baud rate 12/);
  }
});

Deno.test("Retry-After seconds and an upstream status cross the socket", () => {
  const busy = across(new errors.UnavailableError("Busy", { retryAfterSeconds: 3 }));
  assert.ok(busy instanceof errors.UnavailableError);
  assert.equal(busy.retryAfterSeconds, 3);
  const full = across(new printerErrors.QueueFullError("Full", { code: "queue_full" }));
  assert.ok(full instanceof printerErrors.QueueFullError);
  const upstream = across(new errors.UpstreamError("Bad", { upstreamStatus: 400 }));
  assert.ok(upstream instanceof errors.UpstreamError);
  assert.equal(upstream.upstreamStatus, 400);
  assert.equal(upstream.code, "bad_gateway");
});

Deno.test("a subclass declared elsewhere travels as its nearest known class, its code kept", () => {
  class JobMissing extends errors.NotFoundError {}
  const back = across(new JobMissing("No file 'a.gcode'", { code: "file_not_found" }));
  assert.equal(back.constructor, errors.NotFoundError);
  assert.equal((back as errors.AppError).code, "file_not_found");
  assert.equal(statusOf(back), 404);
});

Deno.test("a bug is 'internal': a plain Error (a 500), its message kept and never its stack", () => {
  const bug = new TypeError("Cannot read properties of undefined");
  const wire = toWireError(bug);
  assert.deepEqual(Object.keys(wire).sort(), ["code", "kind", "message"]);
  assert.equal(wire.kind, "internal");
  assert.ok(!JSON.stringify(wire).includes("at "), "no stack frame");
  const back = fromWireError(wire);
  assert.ok(!(back instanceof errors.AppError));
  assert.equal(statusOf(back), 500);
  assert.match(back.message, /printer process failed: Cannot read properties/);
  assert.equal(toWireError("a string thrown").message, "a string thrown");
});

Deno.test("a kind this side does not know, or an inherited name, is a plain Error", () => {
  for (const kind of ["FutureError", "constructor", "toString", "__proto__"]) {
    const back = fromWireError({ message: "x", code: "x", kind });
    assert.equal(back.constructor, Error, kind);
  }
});
