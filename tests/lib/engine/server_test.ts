import assert from "node:assert/strict";
import { AppError } from "../../../lib/error.ts";
import { descendantsOf, isAlive, readProcTable } from "../../../lib/engine/processes.ts";
import { defaultSpawn, type SpawnFn, startLlamaServer } from "../../../lib/engine/server.ts";
import { findOnPath } from "../../../lib/engine/which.ts";
import { waitFor } from "../../_helpers.ts";

const fake = new URL("./fake_llama_server.ts", import.meta.url).pathname;

function fakeSpawn(mode = "serve"): { spawn: SpawnFn; calls: string[][] } {
  const calls: string[][] = [];
  const spawn: SpawnFn = (_command, args, env) => {
    calls.push(args);
    return new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", fake, ...args],
      env: { ...env, FAKE_MODE: mode, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  };
  return { spawn, calls };
}

const hasSetpriv = findOnPath("setpriv") !== null;

const base = { server: "/unused/llama-server", modelsDir: "/tmp/models", stopGraceMs: 2_000 };

Deno.test("startLlamaServer() waits for /health on a free loopback port and stop() leaves no children", async () => {
  const { spawn, calls } = fakeSpawn();
  const server = await startLlamaServer({ ...base, spawn, threads: 3, ctxSize: 256 });
  let kids: number[] = [];
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(server.port > 0);
    const res = await fetch(`${server.url}/health`);
    const body = await res.json();
    assert.match(body.cache, /localbench-llama-cache-/, "a private LLAMA_CACHE is set");
    assert.deepEqual(calls[0]!.slice(0, 6), [
      "--models-dir",
      "/tmp/models",
      "--host",
      "127.0.0.1",
      "--port",
      String(server.port),
    ]);
    assert.ok(calls[0]!.join(" ").includes("-c 256 -t 3"));
    kids = descendantsOf(readProcTable(), server.process.pid);
    assert.ok(kids.length >= 1, "the stand-in started a child");
  } finally {
    await server.stop();
  }
  await server.stop();
  assert.ok(kids.every((pid) => !isAlive(pid)), "no orphan child left");
  assert.ok(server.output().some((l) => l.startsWith("listening")));
  await assert.rejects(fetch(`${server.url}/health`));
});

Deno.test("startLlamaServer() reports engine_exited with the server's last output when it dies", async () => {
  const { spawn, calls } = fakeSpawn("exit");
  await assert.rejects(
    startLlamaServer({ ...base, spawn, port: 45999 }),
    (err: unknown) =>
      err instanceof AppError && err.code === "engine_exited" && /couldn't bind/.test(err.message),
  );
  assert.equal(calls.length, 1, "a fixed port is not retried");
});

Deno.test("startLlamaServer() retries another free port when an automatic one fails", async () => {
  const { spawn, calls } = fakeSpawn("exit");
  await assert.rejects(startLlamaServer({ ...base, spawn }), AppError);
  assert.equal(calls.length, 3);
});

Deno.test("startLlamaServer() refuses a non-loopback host", async () => {
  await assert.rejects(startLlamaServer({ ...base, host: "0.0.0.0" }), RangeError);
});

Deno.test("startLlamaServer() passes a bracketed IPv6 loopback to llama-server bare", async () => {
  const { spawn, calls } = fakeSpawn("exit");
  await assert.rejects(startLlamaServer({ ...base, spawn, host: "[::1]", port: 45999 }), AppError);
  const args = calls[0]!;
  assert.equal(args[args.indexOf("--host") + 1], "::1");
});

Deno.test("startLlamaServer() stops the server when the signal aborts", async () => {
  const { spawn } = fakeSpawn();
  const ac = new AbortController();
  const server = await startLlamaServer({ ...base, spawn, signal: ac.signal });
  ac.abort();
  const status = await server.process.status;
  assert.equal(status.success, true, "exited on SIGTERM");
  await server.stop();
});

Deno.test("defaultSpawn() runs the command itself under the returned pid", async () => {
  const child = defaultSpawn("sleep", ["30"], {});
  try {
    await waitFor(() => Deno.readTextFileSync(`/proc/${child.pid}/cmdline`).startsWith("sleep"), {
      timeoutMs: 2_000,
      intervalMs: 25,
    });
    assert.equal(Deno.readTextFileSync(`/proc/${child.pid}/cmdline`).split("\0")[0], "sleep");
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel();
    await child.stderr.cancel();
  }
});

Deno.test({
  name: "defaultSpawn() makes the server die with the Deno process that started it",
  ignore: !hasSetpriv,
  async fn() {
    const module = new URL("../../../lib/engine/server.ts", import.meta.url).href;
    const code = `import { defaultSpawn } from "${module}";
      const c = defaultSpawn("sleep", ["60"], {});
      console.log(c.pid);
      await new Promise(() => setInterval(() => {}, 1000));`;
    const parent = new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = parent.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const { value } = await reader.read();
    const pid = Number(value?.trim());
    assert.ok(pid > 0 && isAlive(pid));
    parent.kill("SIGKILL");
    await parent.status;
    await reader.cancel();
    await waitFor(() => !isAlive(pid), {
      what: "the server to get the parent-death signal",
      timeoutMs: 3_000,
      intervalMs: 25,
    });
  },
});
