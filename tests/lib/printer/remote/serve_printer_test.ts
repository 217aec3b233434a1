import assert from "node:assert/strict";
import { ConflictError } from "../../../../lib/error.ts";
import { createLogger, type LogLevel } from "../../../../lib/log.ts";
import { PrinterHaltedError } from "../../../../lib/printer/marlin/errors.ts";
import { RemotePrinter, servePrinter } from "../../../../lib/printer/remote/mod.ts";
import { EndProcess, FakePrinter, socketDir, socketFlags, until } from "./_fake_printer.ts";

/** A client that speaks the protocol by hand and keeps every message. */
class RawClient implements AsyncDisposable {
  readonly messages: Record<string, unknown>[] = [];
  #conn: Deno.UnixConn;
  #reading: Promise<void>;
  ended = false;

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
    this.#reading = (async () => {
      let buffered = "";
      try {
        for await (const text of conn.readable.pipeThrough(new TextDecoderStream())) {
          buffered += text;
          let end;
          while ((end = buffered.indexOf("\n")) >= 0) {
            this.messages.push(JSON.parse(buffered.slice(0, end)));
            buffered = buffered.slice(end + 1);
          }
        }
      } catch {
        // closed
      }
      this.ended = true;
    })();
  }

  static async open(path: string): Promise<RawClient> {
    return new RawClient(await Deno.connect({ transport: "unix", path }));
  }

  async send(text: string): Promise<void> {
    await this.#conn.write(new TextEncoder().encode(text));
  }

  /** The first message (after `from`) that has `key` (equal to `value` when given). */
  async next(key: string, value?: unknown, from = 0): Promise<Record<string, unknown>> {
    const find = () =>
      this.messages.slice(from).find((m) =>
        key in m && (value === undefined || JSON.stringify(m[key]) === JSON.stringify(value))
      );
    await until(() => find() !== undefined || this.ended, 5000, `a message with ${key}`);
    return find() ?? assert.fail(`no message with ${key}: ${JSON.stringify(this.messages)}`);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.ended) this.#conn.close();
    await this.#reading;
  }
}

function memoryLogger() {
  const lines: [LogLevel, string][] = [];
  return {
    lines,
    logger: createLogger("printer", { sink: (level, line) => lines.push([level, line]) }),
  };
}

Deno.test("a client first gets the printer's full state, then each event with what it changed", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  await using server = await servePrinter(printer, { path: tmp.path });
  await using client = await RawClient.open(tmp.path);
  const { full } = await client.next("full");
  assert.deepEqual(full, {
    connection: printer.connection(),
    snapshot: printer.snapshot(),
    job: printer.job(),
    history: printer.history(),
    terminal: printer.terminal(),
  });
  await until(() => server.clients === 1);
  printer.report(30, 25);
  const reported = await client.next("event");
  assert.deepEqual(reported.event, { type: "temperatures", snapshot: printer.snapshot() });
  assert.deepEqual(reported.update, {
    connection: printer.connection(),
    snapshot: printer.snapshot(),
    job: printer.job(),
    history: { append: [printer.history().at(-1)], size: 2 },
  });
  printer.say("ok T:30");
  const said = await client.next("event", { type: "terminal", line: printer.terminal().at(-1) });
  assert.deepEqual((said.update as Record<string, unknown>).terminal, {
    append: [printer.terminal().at(-1)],
    size: 2,
  });
  assert.equal((said.update as Record<string, unknown>).history, undefined);
  printer.setState("PRINTING");
  const state = await client.next("event", {
    type: "state",
    state: "PRINTING",
    previous: "OPERATIONAL",
  });
  assert.equal((state.update as { job: { state: string } }).job.state, "PRINTING");
  assert.equal((state.update as Record<string, unknown>).history, undefined, "no new sample");
});

Deno.test("requests are answered by id with the result or the error's kind, code and message", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  printer.answers.startJob = (name) => {
    throw new PrinterHaltedError(`Printer halted: cannot start ${name}`);
  };
  await using _server = await servePrinter(printer, { path: tmp.path });
  await using client = await RawClient.open(tmp.path);
  await client.next("full");
  await client.send(
    '{"id": 1, "method": "ports"}\n{"id": "b", "method": "startJob", "params": ["a.gcode"]}\n',
  );
  assert.deepEqual(await client.next("id", 1), { id: 1, result: ["/dev/ttyUSB0", "VIRTUAL"] });
  assert.deepEqual(await client.next("id", "b"), {
    id: "b",
    error: {
      message: "Printer halted: cannot start a.gcode",
      code: "printer_halted",
      kind: "PrinterHaltedError",
    },
  });
  await client.send('{"id": 2, "method": "setTargets", "params": [{"bed": 60}]}\n');
  assert.deepEqual(await client.next("id", 2), { id: 2, result: null });
  assert.deepEqual(printer.calls.map((c) => c.method), ["ports", "startJob", "setTargets"]);
  assert.deepEqual(printer.calls[2]!.params, [{ bed: 60 }]);
});

Deno.test("a malformed, unknown or oversized line is answered with an error and the server goes on", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  await using _server = await servePrinter(printer, { path: tmp.path, maxRequestBytes: 1024 });
  await using client = await RawClient.open(tmp.path);
  await client.next("full");
  await client.send("not json\n");
  const malformed = await client.next("error");
  assert.equal(malformed.id, null);
  assert.deepEqual(Object.keys(malformed.error as object).sort(), ["code", "kind", "message"]);
  assert.equal(
    (malformed.error as { kind: string }).kind,
    "UsageError",
  );
  await client.send(`{"id": 5, "method": "reboot"}\n`);
  assert.match(JSON.stringify(await client.next("id", 5)), /has no method 'reboot'.*UsageError/);
  await client.send(`{"id": 6, "method": "commands", "params": ["${"x".repeat(5000)}"]}\n`);
  const tooLong = await client.next("error", undefined, client.messages.length);
  assert.equal(tooLong.id, null);
  assert.equal((tooLong.error as { kind: string }).kind, "TooLargeError");
  await client.send('{"id": 7, "method": "fakeAck"}\n');
  assert.deepEqual(await client.next("id", 7), { id: 7, result: null });
  assert.deepEqual(
    printer.calls.map((c) => c.method),
    ["fakeAck"],
    "nothing else reached the printer",
  );
});

Deno.test("a bug in the printer answers 'internal' without a stack, and is logged with it", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  printer.answers.disconnect = () => {
    throw new TypeError("port is undefined");
  };
  const { lines, logger } = memoryLogger();
  await using _server = await servePrinter(printer, { path: tmp.path, logger });
  await using client = await RawClient.open(tmp.path);
  await client.send('{"id": 1, "method": "disconnect"}\n');
  assert.deepEqual(await client.next("id", 1), {
    id: 1,
    error: { message: "port is undefined", code: "internal", kind: "internal" },
  });
  assert.equal(lines.length, 1);
  assert.equal(lines[0]![0], "error");
  assert.match(
    lines[0]![1],
    /The printer failed disconnect: TypeError: port is undefined\\n\s+at /,
  );
});

Deno.test("a client that stops reading is dropped at its cap while another keeps every event", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  const { lines, logger } = memoryLogger();
  await using server = await servePrinter(printer, {
    path: tmp.path,
    maxQueueBytes: 64 * 1024,
    logger,
  });
  const stalled = await Deno.connect({ transport: "unix", path: tmp.path }); // never reads
  await using remote = new RemotePrinter({ path: tmp.path });
  await remote.synced();
  let seen = 0;
  remote.subscribe((event) => event.type === "terminal" && seen++);
  await until(() => server.clients === 2);
  let sent = 0;
  while (server.clients === 2) {
    assert.ok(sent < 2000, "the stalled client was never dropped");
    printer.say("x".repeat(4096));
    sent++;
    await until(() => seen === sent, 5000, `event ${sent}`);
  }
  for (let i = 0; i < 10; i++) printer.say("after");
  await until(() => seen === sent + 10);
  assert.equal(server.clients, 1);
  assert.ok(remote.linked, "the reading client was never dropped");
  assert.ok(
    lines.some(([level, line]) =>
      level === "warn" && /left more than 65536 bytes unread/.test(line)
    ),
  );
  stalled.close();
});

Deno.test("clients beyond the cap are told the printer process is busy and closed", async () => {
  await using tmp = await socketDir();
  await using server = await servePrinter(new FakePrinter(), { path: tmp.path, maxClients: 1 });
  await using first = await RawClient.open(tmp.path);
  await first.next("full");
  await using second = await RawClient.open(tmp.path);
  const refused = await second.next("error");
  assert.equal((refused.error as { kind: string }).kind, "UnavailableError");
  assert.match((refused.error as { message: string }).message, /serves 1 clients already/);
  await until(() => second.ended);
  assert.equal(second.messages.length, 1, "no state, no events");
  assert.equal(server.clients, 1);
});

Deno.test("requests in flight are capped per client", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  const release = Promise.withResolvers<void>();
  printer.answers.commands = () => release.promise;
  await using _server = await servePrinter(printer, { path: tmp.path, maxPendingRequests: 2 });
  await using client = await RawClient.open(tmp.path);
  const line = (id: number) => `{"id": ${id}, "method": "commands", "params": [["G28"]]}\n`;
  await client.send(line(1) + line(2) + line(3));
  const third = await client.next("id", 3);
  assert.equal((third.error as { kind: string }).kind, "UnavailableError");
  release.resolve();
  assert.deepEqual(await client.next("id", 1), { id: 1, result: null });
  assert.deepEqual(await client.next("id", 2), { id: 2, result: null });
  await client.send(line(4));
  assert.deepEqual(await client.next("id", 4), { id: 4, result: null });
});

Deno.test("a second server on a path a live server holds is refused; closing frees the path", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  const server = await servePrinter(printer, { path: tmp.path });
  await assert.rejects(
    servePrinter(new FakePrinter(), { path: tmp.path }),
    (err) => err instanceof ConflictError && /another printer process is running/.test(err.message),
  );
  assert.equal(printer.listeners, 1);
  await server.close();
  await server.close();
  assert.equal(printer.listeners, 0, "the server unsubscribed");
  await assert.rejects(Deno.lstat(tmp.path), Deno.errors.NotFound);
  await (await servePrinter(printer, { path: tmp.path })).close();
});

Deno.test("the server needs read, write and net on the socket's path alone", async () => {
  await using tmp = await socketDir();
  const server = new EndProcess("serve", tmp.path, socketFlags(tmp.path));
  await server.waitFor("listening");
  await using remote = new RemotePrinter({ path: tmp.path });
  await remote.synced();
  assert.equal(remote.snapshot().state, "OPERATIONAL");
  assert.deepEqual(await remote.ports(), ["/dev/ttyUSB0", "VIRTUAL"]);
  assert.equal((await server.end()).code, 0);
  for (const flag of socketFlags(tmp.path)) {
    const short = new EndProcess(
      "serve",
      tmp.path,
      socketFlags(tmp.path).filter((f) => f !== flag),
    );
    const { code, stderr } = await short.end();
    assert.notEqual(code, 0, `serves without ${flag}`);
    assert.match(stderr, /NotCapable: Requires (read|write|net) access/, flag);
  }
});
