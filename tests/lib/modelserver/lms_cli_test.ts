import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError } from "../../../lib/error.ts";
import { ensureLmsServer, LmsCli, type ProcessRunner } from "../../../lib/modelserver/mod.ts";
import { installFakeLms } from "../../doubles/fake_lms_install.ts";
import { rejectionOf } from "./_fixtures.ts";

Deno.test("LmsCli drives a fake lms: ls --json, server status and start, unload --all, version", async () => {
  const fake = await installFakeLms();
  try {
    const cli = new LmsCli({ home: fake.home, path: "", timeoutMs: 20_000 });
    assert.equal(cli.locate(), fake.bin);
    const models = await cli.ls();
    const qwen = models.find((m) => m.modelKey === "qwen/qwen3-4b")!;
    assert.deepEqual(qwen.variants, ["qwen/qwen3-4b@q4_k_m", "qwen/qwen3-4b@q8_0"]);
    assert.equal(models.find((m) => m.modelKey === "google/gemma-4-26b-a4b")!.vision, true);
    assert.deepEqual(await cli.serverStatus(), { running: false, port: null });
    await cli.serverStart(1235);
    assert.deepEqual(await cli.serverStatus(), { running: true, port: 1235 });
    await cli.unloadAll();
    assert.equal(await cli.version(), "0.4.1");
    assert.deepEqual(fake.read().calls, [
      ["ls", "--json"],
      ["server", "status", "--json", "--quiet"],
      ["server", "start", "--port", "1235"],
      ["server", "status", "--json", "--quiet"],
      ["unload", "--all"],
      ["version"],
    ]);
  } finally {
    await fake.remove();
  }
});

Deno.test("LmsCli finds lms on PATH when ~/.lmstudio/bin has none", async () => {
  const fake = await installFakeLms();
  try {
    const dir = fake.bin.replace(/\/lms$/, "");
    assert.equal(new LmsCli({ home: "/nonexistent", path: `/nowhere:${dir}` }).locate(), fake.bin);
    assert.equal(new LmsCli({ home: "/nonexistent", path: "/nowhere" }).locate(), null);
    const err = await rejectionOf(new LmsCli({ home: "/nonexistent", path: "" }).ls());
    assert.ok(err instanceof AppError && err.code === "lms_not_found");
  } finally {
    await fake.remove();
  }
});

Deno.test("LmsCli gives up on a command that outlives its timeout", async () => {
  const fake = await installFakeLms({ env: { FAKE_LMS_SLEEP_MS: "10000" } });
  try {
    const err = await rejectionOf(
      new LmsCli({ home: fake.home, path: "", timeoutMs: 300 }).version(),
    );
    assert.ok(err instanceof AppError);
    assert.equal(statusOf(err), 504);
    assert.match(err.message, /lms version.*300 ms/);
  } finally {
    await fake.remove();
  }
});

Deno.test("LmsCli reports a failing command with its exit code and message", async () => {
  const fake = await installFakeLms({ env: { FAKE_LMS_FAIL: "server start" } });
  try {
    const err = await rejectionOf(
      new LmsCli({ home: fake.home, path: "", timeoutMs: 20_000 }).serverStart(),
    );
    assert.ok(err instanceof AppError);
    assert.equal(
      err.message,
      "Cannot run 'lms server start': exit code 1: Error: simulated failure of 'lms server start'",
    );
  } finally {
    await fake.remove();
  }
});

function scripted(
  outputs: Record<string, { code?: number; stdout?: string }>,
): ProcessRunner & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    run(_cmd, args) {
      const line = args.join(" ");
      calls.push(line);
      const o = outputs[line] ?? { code: 1 };
      return Promise.resolve({
        code: o.code ?? 0,
        stdout: o.stdout ?? "",
        stderr: "",
        timedOut: false,
      });
    },
  };
}

Deno.test("LmsCli.serverStatus() reads plain-text output of older lms versions", async () => {
  const home = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${home}/.lmstudio/bin`, { recursive: true });
    await Deno.writeTextFile(`${home}/.lmstudio/bin/lms`, "");
    const runner = scripted({
      "server status --json --quiet": { stdout: "The server is running on port 1234." },
    });
    assert.deepEqual(await new LmsCli({ home, path: "", runner }).serverStatus(), {
      running: true,
      port: 1234,
    });
    const off = scripted({
      "server status --json --quiet": { stdout: "The server is not running." },
    });
    assert.deepEqual(await new LmsCli({ home, path: "", runner: off }).serverStatus(), {
      running: false,
      port: null,
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("ensureLmsServer() starts the server when it does not answer and polls until it does", async () => {
  const home = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${home}/.lmstudio/bin`, { recursive: true });
    await Deno.writeTextFile(`${home}/.lmstudio/bin/lms`, "");
    const runner = scripted({ "server start": {} });
    const cli = new LmsCli({ home, path: "", runner });
    let probes = 0;
    const started = await ensureLmsServer(cli, {
      isUp: () => Promise.resolve(++probes >= 3),
      pollMs: 1,
    });
    assert.equal(started, true);
    assert.deepEqual(runner.calls, ["server start"]);
    assert.equal(await ensureLmsServer(cli, { isUp: () => Promise.resolve(true) }), false);
    const err = await rejectionOf(
      ensureLmsServer(cli, { isUp: () => Promise.resolve(false), pollMs: 1, timeoutMs: 20 }),
    );
    assert.ok(err instanceof AppError && statusOf(err) === 503);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
