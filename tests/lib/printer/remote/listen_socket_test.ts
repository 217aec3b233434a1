import assert from "node:assert/strict";
import { ConflictError } from "../../../../lib/error.ts";
import { listenSocket, socketAnswers } from "../../../../lib/printer/remote/listen_socket.ts";
import { EndProcess, socketDir } from "./_fake_printer.ts";

Deno.test("listenSocket() makes a socket only its owner may use, and closing removes it", async () => {
  await using tmp = await socketDir();
  const listener = await listenSocket(tmp.path);
  const info = await Deno.lstat(tmp.path);
  assert.ok(info.isSocket);
  assert.equal(info.mode! & 0o777, 0o600);
  assert.equal(await socketAnswers(tmp.path), true);
  listener.close();
  await assert.rejects(Deno.lstat(tmp.path), Deno.errors.NotFound);
  assert.equal(await socketAnswers(tmp.path), false);
});

Deno.test("listenSocket() takes over the socket file of a process killed with SIGKILL", async () => {
  await using tmp = await socketDir();
  const dead = new EndProcess("serve", tmp.path);
  await dead.waitFor("listening");
  dead.child.kill("SIGKILL");
  assert.equal((await dead.end()).signal, "SIGKILL");
  assert.ok((await Deno.lstat(tmp.path)).isSocket, "the killed process left its file");
  assert.equal(await socketAnswers(tmp.path), false);
  const listener = await listenSocket(tmp.path);
  assert.equal(await socketAnswers(tmp.path), true);
  listener.close();
});

Deno.test("listenSocket() refuses a path a live process listens on, and leaves it alone", async () => {
  await using tmp = await socketDir();
  const live = new EndProcess("serve", tmp.path);
  await live.waitFor("listening");
  const err = await listenSocket(tmp.path).then(() => null, (e) => e);
  assert.ok(err instanceof ConflictError);
  assert.equal(err.code, "socket_in_use");
  assert.match(err.message, /another printer process is running and listens there/);
  assert.equal(await socketAnswers(tmp.path), true, "the live one still answers");
  assert.equal((await live.end()).code, 0);
});

Deno.test("listenSocket() refuses a path that holds a file that is no socket, and keeps it", async () => {
  await using tmp = await socketDir();
  await Deno.writeTextFile(tmp.path, "precious");
  const err = await listenSocket(tmp.path).then(() => null, (e) => e);
  assert.ok(err instanceof ConflictError);
  assert.equal(err.code, "not_a_socket");
  assert.equal(await Deno.readTextFile(tmp.path), "precious");
});
