import assert from "node:assert/strict";
import {
  ConflictError,
  UnreachableError,
  UpstreamTimeoutError,
  UsageError,
} from "../../../../lib/error.ts";
import { statusOf } from "../../../../lib/http/error_handler.ts";
import { PrinterHaltedError } from "../../../../lib/printer/marlin/errors.ts";
import type { PrinterEvent } from "../../../../lib/printer/printer.ts";
import { RemotePrinter, servePrinter } from "../../../../lib/printer/remote/mod.ts";
import { EndProcess, FakePrinter, socketDir, socketFlags, until } from "./_fake_printer.ts";

/** Every sync read of a printer. */
function reads(p: FakePrinter | RemotePrinter) {
  return {
    connection: p.connection(),
    snapshot: p.snapshot(),
    job: p.job(),
    history: p.history(),
    terminal: p.terminal(),
  };
}

Deno.test("a remote printer reads what the served printer reads, and follows its events", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  await using _server = await servePrinter(printer, { path: tmp.path });
  await using remote = new RemotePrinter({ path: tmp.path });
  const heard: [PrinterEvent, number][] = [];
  remote.subscribe((event) => heard.push([event, remote.snapshot().time]));
  await remote.synced();
  assert.ok(remote.linked);
  assert.deepEqual(reads(remote), reads(printer));
  heard.length = 0; // what the first state told
  for (let i = 0; i < 7; i++) printer.report(30 + i, 25); // more samples than the printer keeps
  printer.say("echo:busy: processing");
  printer.setState("PRINTING");
  await until(() => heard.length === 9);
  assert.deepEqual(reads(remote), reads(printer));
  assert.equal(remote.history().length, 5);
  assert.equal(heard[0]![0].type, "temperatures");
  assert.equal(heard[0]![1], 2000, "the mirror is updated before listeners hear the event");
  assert.deepEqual(heard[8]![0], { type: "state", state: "PRINTING", previous: "OPERATIONAL" });
  remote.history().pop();
  assert.equal(remote.history().length, 5, "a caller's copy, not the mirror");
});

Deno.test("calls travel with their arguments and come back with results", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  await using _server = await servePrinter(printer, { path: tmp.path });
  await using remote = new RemotePrinter({ path: tmp.path });
  await remote.synced();
  assert.deepEqual(await remote.ports(), ["/dev/ttyUSB0", "VIRTUAL"]);
  await remote.connect({ port: "VIRTUAL", baudrate: 115200 });
  await remote.setTargets({ tool0: 210, bed: 60 });
  await remote.commands(["G28", "M105"]);
  await remote.startJob("cube.gcode");
  await remote.pauseJob();
  await remote.resumeJob();
  await remote.cancelJob();
  await remote.fakeAck();
  await remote.disconnect();
  assert.deepEqual(printer.calls, [
    { method: "ports", params: [] },
    { method: "connect", params: [{ port: "VIRTUAL", baudrate: 115200 }] },
    { method: "setTargets", params: [{ tool0: 210, bed: 60 }] },
    { method: "commands", params: [["G28", "M105"]] },
    { method: "startJob", params: ["cube.gcode"] },
    { method: "pauseJob", params: [] },
    { method: "resumeJob", params: [] },
    { method: "cancelJob", params: [] },
    { method: "fakeAck", params: [] },
    { method: "disconnect", params: [] },
  ]);
});

Deno.test("errors come back as their classes: the web edge answers the same status", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  const thrown = {
    pauseJob: new ConflictError("Printer is not printing", { code: "not_printing" }),
    commands: new PrinterHaltedError("Printer halted: Heating failed, system stopped!"),
    setTargets: new UsageError("Invalid target for bed: must be 0..120"),
  };
  for (const [method, err] of Object.entries(thrown)) {
    printer.answers[method as keyof typeof thrown] = () => Promise.reject(err);
  }
  await using _server = await servePrinter(printer, { path: tmp.path });
  await using remote = new RemotePrinter({ path: tmp.path });
  await remote.synced();
  const caught = await Promise.all([
    remote.pauseJob().catch((e) => e),
    remote.commands(["M104 S500"]).catch((e) => e),
    remote.setTargets({ bed: 500 }).catch((e) => e),
  ]);
  for (const [err, sent] of caught.map((e, i) => [e, Object.values(thrown)[i]!] as const)) {
    assert.equal(err.constructor, sent.constructor);
    assert.equal(err.message, sent.message);
    assert.equal(err.code, sent.code);
    assert.equal(statusOf(err), statusOf(sent));
  }
  assert.ok(caught[0] instanceof ConflictError);
  assert.ok(caught[1] instanceof PrinterHaltedError && caught[1] instanceof ConflictError);
});

Deno.test("when the server restarts, the client reconnects, resyncs, and its listeners still fire", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  const first = await servePrinter(printer, { path: tmp.path });
  await using remote = new RemotePrinter({ path: tmp.path, reconnectMinMs: 20 });
  const heard: PrinterEvent[] = [];
  remote.subscribe((event) => heard.push(event));
  await remote.synced();
  heard.length = 0;
  await first.close();
  await until(() => !remote.linked, 5000, "the drop");
  await assert.rejects(remote.pauseJob(), (err) => {
    assert.ok(err instanceof UnreachableError);
    assert.equal(err.code, "printer_process_unreachable");
    assert.match(err.message, /Cannot reach the printer process at .*printer\.sock/);
    return statusOf(err) === 503;
  });
  // Meanwhile the printer started printing and reported.
  printer.setState("PRINTING");
  printer.report(180, 55);
  await using _second = await servePrinter(printer, { path: tmp.path });
  await remote.synced();
  assert.deepEqual(reads(remote), reads(printer));
  assert.deepEqual(heard.map((e) => e.type), ["connection", "state", "temperatures", "job"]);
  assert.deepEqual(heard[1], { type: "state", state: "PRINTING", previous: "OPERATIONAL" });
  printer.say("ok");
  await until(() => heard.length === 5);
  assert.deepEqual(heard[4], { type: "terminal", line: printer.terminal().at(-1) });
  await remote.cancelJob();
  assert.equal(printer.calls.at(-1)?.method, "cancelJob");
});

Deno.test("a call in flight when the socket drops fails as unreachable, naming the printer process", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  printer.answers.commands = () => new Promise(() => {}); // never answers
  const server = await servePrinter(printer, { path: tmp.path });
  await using remote = new RemotePrinter({ path: tmp.path, reconnectMinMs: 10_000 });
  await remote.synced();
  const call = remote.commands(["M109 S210"]);
  await until(() => printer.calls.length === 1);
  await server.close();
  await assert.rejects(call, (err) => {
    assert.ok(err instanceof UnreachableError);
    assert.equal(err.code, "printer_process_lost");
    assert.match(err.message, /printer process at .* went away before it answered 'commands'/);
    return true;
  });
});

Deno.test("a call the printer process leaves unanswered times out as an upstream timeout", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  const late = Promise.withResolvers<void>();
  printer.answers.startJob = () => late.promise;
  await using _server = await servePrinter(printer, { path: tmp.path });
  await using remote = new RemotePrinter({ path: tmp.path, requestTimeoutMs: 50 });
  await remote.synced();
  await assert.rejects(remote.startJob("a.gcode"), (err) => {
    assert.ok(err instanceof UpstreamTimeoutError);
    assert.match(err.message, /did not answer 'startJob' within 0.05 s/);
    return statusOf(err) === 504;
  });
  late.resolve(); // the late answer is dropped
  assert.deepEqual(await remote.ports(), ["/dev/ttyUSB0", "VIRTUAL"], "the link still works");
});

Deno.test("with nothing listening, synced() fails as unreachable and close() ends the retries", async () => {
  await using tmp = await socketDir();
  const remote = new RemotePrinter({ path: tmp.path, reconnectMinMs: 5, reconnectMaxMs: 20 });
  await assert.rejects(remote.synced(100), (err) => {
    assert.ok(err instanceof UnreachableError);
    assert.match(err.message, /No such file or directory.*is it running\?/);
    return true;
  });
  assert.equal(remote.snapshot().state, "OFFLINE");
  assert.equal(remote.connection().port, null);
  const waiting = remote.synced(60_000);
  await remote.close();
  await remote.close();
  await assert.rejects(waiting, /this connection to it is closed/);
  await assert.rejects(remote.ports(), UnreachableError);
});

Deno.test("a failing listener does not keep the others from hearing; unsubscribing stops one", async () => {
  await using tmp = await socketDir();
  const printer = new FakePrinter();
  await using _server = await servePrinter(printer, { path: tmp.path });
  await using remote = new RemotePrinter({ path: tmp.path });
  await remote.synced();
  let heard = 0;
  let gone = 0;
  remote.subscribe(() => {
    throw new Error("listener bug");
  });
  remote.subscribe(() => heard++);
  const unsubscribe = remote.subscribe(() => gone++);
  printer.say("one");
  await until(() => heard === 1);
  unsubscribe();
  printer.say("two");
  await until(() => heard === 2);
  assert.equal(gone, 1);
});

Deno.test("the client needs read, write and net on the socket's path alone", async () => {
  await using tmp = await socketDir();
  await using _server = await servePrinter(new FakePrinter(), { path: tmp.path });
  const client = new EndProcess("client", tmp.path, socketFlags(tmp.path));
  const { code, stdout, stderr } = await client.end();
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), {
    state: "OPERATIONAL",
    ports: ["/dev/ttyUSB0", "VIRTUAL"],
  });
  for (const kind of ["read", "write", "net"]) {
    const flags = socketFlags(tmp.path).filter((f) => !f.startsWith(`--allow-${kind}`));
    const short = await new EndProcess("client", tmp.path, flags, ["300"]).end();
    assert.notEqual(short.code, 0, `connects without --allow-${kind}`);
    assert.match(short.stderr, new RegExp(`Requires ${kind} access to "(unix:)?${tmp.path}"`));
  }
});

Deno.test("a printer process killed and started again is reached again on the same path", async () => {
  await using tmp = await socketDir();
  const killed = new EndProcess("serve", tmp.path);
  await killed.waitFor("listening");
  await using remote = new RemotePrinter({
    path: tmp.path,
    reconnectMinMs: 20,
    reconnectMaxMs: 100,
  });
  await remote.synced();
  killed.child.kill("SIGKILL");
  await killed.end();
  await until(() => !remote.linked, 5000, "the drop");
  const again = new EndProcess("serve", tmp.path); // takes over the file the killed one left
  await again.waitFor("listening");
  await remote.synced();
  assert.deepEqual(await remote.ports(), ["/dev/ttyUSB0", "VIRTUAL"]);
  assert.equal((await again.end()).code, 0);
});
