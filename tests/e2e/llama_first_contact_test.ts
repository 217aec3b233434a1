/**
 * The real llama-server as a new user meets it: a model the router already runs is benchmarked
 * (loaded again), and a server started with `-m FILE` (whose model id is the file's whole path)
 * shows the model's short name while the store and the JSON report keep the full id. Skipped
 * when the engine is not built (`deno task engine:setup`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findEngine, loadRouterModel, startLlamaServer } from "../../lib/engine/mod.ts";
import { runDeno, tempEnv } from "../_helpers.ts";

const engine = findEngine();

async function cli(args: string[], vars: Record<string, string>) {
  return await runDeno(["run", "-A", "cli.ts", "--backend", "openai", ...args], { env: vars });
}

Deno.test({
  name: "a model the llama.cpp router already runs is benchmarked, not failed",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 512, parallel: 1, modelsMax: 2 });
    await loadRouterModel(server.url, "tiny-a");
    const r = await cli(
      [
        "--base-url",
        server.url,
        "--runs",
        "1",
        "--include-models",
        "^tiny-a$",
        "--max-tokens",
        "16",
      ],
      env.vars,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /1 measured, 0 failed/);
    assert.doesNotMatch(r.stderr, /already running/);
  },
});

/** Starts llama-server on one model file (no alias): its model id is the file's path. */
async function singleModelServer(model: string): Promise<{ url: string; stop(): Promise<void> }> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const child = new Deno.Command(engine!.server, {
    args: ["-m", model, "--host", "127.0.0.1", "--port", String(port), "-c", "512", "-t", "2"]
      .concat(["-np", "1", "--no-webui"]),
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
  };
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${url}/health`).then((r) => (r.body?.cancel(), r.ok), () => false);
    if (ok) return { url, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error("llama-server did not become ready");
}

Deno.test({
  name: "a model id that is a file path is shown by its short name; the JSON keeps the path",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    const file = join(engine!.modelsDir, "tiny-a.gguf");
    const server = await singleModelServer(file);
    try {
      const r = await cli(
        ["--base-url", server.url, "--runs", "1", "--max-tokens", "16"],
        env.vars,
      );
      assert.equal(r.code, 0, r.stderr);
      const row = r.stdout.split("\n").find((l) => l.startsWith("tiny-a "));
      assert.ok(row, r.stdout);
      assert.doesNotMatch(r.stdout + r.stderr, new RegExp(engine!.modelsDir));
      const json = /Report \(JSON\): (\S+)/.exec(r.stdout)![1]!;
      const report = JSON.parse(await Deno.readTextFile(json));
      assert.ok(JSON.stringify(report).includes(file), "the full id stays in the JSON report");
      const listed = await runDeno(["run", "-A", "cli.ts", "--list-cache"], { env: env.vars });
      assert.match(listed.stdout, /^tiny-a\s/m);
    } finally {
      await server.stop();
    }
  },
});
