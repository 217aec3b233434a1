import assert from "node:assert/strict";
import { connect } from "../../lib/bench/connect.ts";
import { AppError } from "../../lib/error.ts";
import type { Backend } from "../../lib/modelserver/backend.ts";
import { createBackend } from "../../lib/modelserver/factory.ts";
import { LmsCli } from "../../lib/modelserver/lms_cli.ts";
import type { ProcessRunner } from "../../lib/modelserver/process.ts";
import { installFakeLms } from "../doubles/fake_lms_install.ts";
import { type RunningLmStudioDouble, startLmStudioDouble } from "../doubles/lmstudio_server.ts";
import { testConfig } from "../lib/bench/_harness.ts";

/** A loopback port nothing listens on. */
function deadPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

const quiet = { createBackend, lms: null, note: () => {} };

Deno.test("nothing listening gives the clear 'Cannot reach' error naming every address tried", async () => {
  const [a, b] = [deadPort(), deadPort()];
  const config = testConfig(a);
  config.modelserver.ports = [a, b];
  config.modelserver.backend = "rest";
  await assert.rejects(connect(config, quiet), (err) => {
    assert.ok(err instanceof AppError);
    assert.equal(err.code, "unreachable");
    assert.match(
      err.message,
      new RegExp(`^Cannot reach LM Studio at 127\\.0\\.0\\.1:${a} or 127\\.0\\.0\\.1:${b}`),
    );
    assert.match(err.message, /lms server start.*--base-url/);
    return true;
  });
});

Deno.test("an OpenAI-compatible base URL that does not answer names the URL", async () => {
  const config = testConfig(0);
  config.modelserver.backend = "openai";
  config.modelserver.base_url = `http://127.0.0.1:${deadPort()}`;
  await assert.rejects(
    connect(config, quiet),
    /Cannot reach an OpenAI-compatible server at http:\/\/127\.0\.0\.1:\d+/,
  );
});

Deno.test("the second port is tried when the first does not answer", async () => {
  await using d = await startLmStudioDouble({ port: 0 }).then((d) => ({
    d,
    [Symbol.asyncDispose]: () => d.close(),
  }));
  const config = testConfig(d.d.port);
  config.modelserver.ports = [deadPort(), d.d.port];
  config.modelserver.backend = "rest";
  const backend = await connect(config, quiet);
  try {
    assert.equal(backend.describe(), `LM Studio REST at http://127.0.0.1:${d.d.port}`);
  } finally {
    await backend.close();
  }
});

Deno.test("when LM Studio is down, 'lms server start' is run and the server is used", async () => {
  const port = deadPort();
  let double: RunningLmStudioDouble | null = null;
  const calls: string[][] = [];
  // The simulated `lms`: `server start --port N` brings the double up on that port.
  const runner: ProcessRunner = {
    async run(_cmd, args) {
      calls.push(args);
      if (args[0] === "server" && args[1] === "start") {
        double = await startLmStudioDouble({ port: Number(args[args.indexOf("--port") + 1]) });
      }
      return { code: 0, stdout: "", stderr: "", timedOut: false };
    },
  };
  const home = await Deno.makeTempDir();
  await Deno.mkdir(`${home}/.lmstudio/bin`, { recursive: true });
  await Deno.writeTextFile(`${home}/.lmstudio/bin/lms`, "");
  const notes: string[] = [];
  let backend: Backend | null = null;
  try {
    const config = testConfig(port);
    config.modelserver.backend = "sdk";
    backend = await connect(config, {
      createBackend,
      lms: new LmsCli({ home, path: "", runner }),
      note: (m) => notes.push(m),
    });
    assert.deepEqual(calls, [["server", "start", "--port", String(port)]]);
    assert.match(notes[0]!, /No model server answers at 127\.0\.0\.1:\d+: starting it/);
    assert.ok((await backend.listModels()).length > 0);
  } finally {
    await backend?.close();
    await (double as RunningLmStudioDouble | null)?.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the fake lms is asked to start the server and a server that never comes up is a clear error", async () => {
  const fake = await installFakeLms();
  try {
    const port = deadPort();
    const config = testConfig(port);
    config.modelserver.backend = "rest";
    await assert.rejects(
      connect(config, {
        createBackend,
        lms: new LmsCli({ home: fake.home, path: "" }),
        note: () => {},
        startTimeoutMs: 300,
      }),
      /Cannot start the model server with 'lms server start': it did not answer within 300 ms/,
    );
    assert.deepEqual(fake.read().calls.at(-1), ["server", "start", "--port", String(port)]);
  } finally {
    await fake.remove();
  }
});
