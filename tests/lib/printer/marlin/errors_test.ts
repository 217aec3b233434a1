import assert from "node:assert/strict";
import {
  ConflictError,
  UnavailableError,
  UnreachableError,
  UpstreamTimeoutError,
} from "../../../../lib/error.ts";
import { statusOf } from "../../../../lib/http/error_handler.ts";
import {
  PrinterDisconnectedError,
  PrinterHaltedError,
  PrinterTimeoutError,
  QueueFullError,
} from "../../../../lib/printer/marlin/errors.ts";

Deno.test("the printer's errors carry their meaning, a precise code and a status at the web edge", () => {
  const cases = [
    [new PrinterHaltedError("x"), ConflictError, "printer_halted", 409],
    [new PrinterDisconnectedError("x"), UnreachableError, "printer_disconnected", 503],
    [new PrinterTimeoutError("x"), UpstreamTimeoutError, "printer_timeout", 504],
    [new QueueFullError("x"), UnavailableError, "queue_full", 503],
  ] as const;
  for (const [error, base, code, status] of cases) {
    assert.ok(error instanceof base, error.name);
    assert.equal(error.code, code);
    assert.equal(statusOf(error), status);
  }
});
