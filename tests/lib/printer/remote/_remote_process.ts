/**
 * The socket's two ends as programs, for tests that run them under narrow Deno flags or kill
 * them: `serve PATH` serves a fake printer until its standard input closes (it prints
 * `listening`); `client PATH [SYNC_MS]` connects, prints the printer's state and ports as JSON,
 * and ends.
 *
 * @module
 */
import { print } from "../../../../lib/log.ts";
import { RemotePrinter, servePrinter } from "../../../../lib/printer/remote/mod.ts";
import { FakePrinter } from "./_fake_printer.ts";

const [mode, path, syncMs] = Deno.args;
if (!path) throw new Error("Usage: _remote_process.ts serve|client PATH");
if (mode === "serve") {
  const server = await servePrinter(new FakePrinter(), { path });
  print("listening");
  for await (const _ of Deno.stdin.readable) {
    // Serves until the test closes our input.
  }
  await server.close();
} else {
  await using printer = new RemotePrinter({ path });
  await printer.synced(Number(syncMs ?? 10_000));
  print(JSON.stringify({ state: printer.snapshot().state, ports: await printer.ports() }));
}
