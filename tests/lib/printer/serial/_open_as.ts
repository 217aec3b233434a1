/**
 * Opens a serial port in a process of its own and prints what happened as one JSON line:
 * `{"opened": true}` or `{"name", "code", "message"}`. `open_test.ts` runs it as the user
 * `nobody` (root may open any port, so only another user shows a real refusal).
 *
 * Usage: `deno run --allow-ffi=<libc> _open_as.ts PATH BAUD`
 *
 * @module
 */
import { AppError } from "../../../../lib/error.ts";
import { openSerialTransport } from "../../../../lib/printer/serial/mod.ts";

const [path = "", baud = "250000"] = Deno.args;
const print = (value: unknown) =>
  Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(value) + "\n"));
try {
  const line = await openSerialTransport(path, { baudRate: Number(baud) });
  await line.close();
  print({ opened: true });
} catch (err) {
  if (!(err instanceof AppError)) throw err;
  print({ name: err.name, code: err.code, message: err.message });
}
