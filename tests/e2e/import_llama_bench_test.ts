/**
 * `--import` of the real llama-bench's output: the engine's `llama-bench` (built by
 * `deno task engine:setup` beside llama-server) measures a generated tiny model with a few tokens,
 * writes `-o json` and `-o jsonl`, and `cli.ts --import` stores each test once. Ignored only when
 * the engine or its llama-bench is not built (CI builds both first).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findEngine } from "../../lib/engine/mod.ts";
import { isFileSync } from "../../lib/fs.ts";
import { runDeno, type TempEnv, tempEnv } from "../_helpers.ts";
import { storedResults } from "./_engine_cli.ts";

const engine = findEngine();
const bench = engine && isFileSync(engine.paths.bench) ? engine.paths.bench : null;

/** Runs the real llama-bench on the engine's first model; returns its standard output. */
async function llamaBench(format: "json" | "jsonl"): Promise<string> {
  const model = join(engine!.modelsDir, engine!.manifest.models[0]!.file);
  const out = await new Deno.Command(bench!, {
    // Two tests (pp16, tg8) at two depths, two repetitions each: seconds on a tiny model.
    args: ["-m", model, "-p", "16", "-n", "8", "-d", "0,32", "-r", "2", "-t", "2", "-o", format],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, `llama-bench failed: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

function cli(args: string[], env: TempEnv) {
  return runDeno(["run", "-A", "cli.ts", ...args], { env: env.vars });
}

Deno.test({
  name:
    "--import stores the real llama-bench's -o json and -o jsonl tests, each once, as llama-bench results",
  ignore: !bench,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    const name = engine!.manifest.models[0]!.name;
    let before = 0;
    for (const format of ["json", "jsonl"] as const) {
      const file = join(env.root, `bench.${format}`);
      const output = await llamaBench(format);
      await Deno.writeTextFile(file, output);
      const tests = format === "json"
        ? JSON.parse(output)
        : output.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(tests.length, 4, "pp16 and tg8, each at depth 0 and 32");

      let r = await cli(["--import", file], env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `Imported 4 llama-bench result(s) from ${file}`);
      const added = storedResults(env).slice(before);
      assert.equal(added.length, 4);
      for (const t of tests) {
        const pp = t.n_prompt as number;
        const depth = t.n_depth as number;
        const row = added.find((x) => {
          const w = JSON.parse(String(x.params_json)).workload;
          return (w.prompt_tokens?.[0] ?? 0) === pp && (w.kv_depth?.[0] ?? 0) === depth;
        });
        assert.ok(row, `the test pp${pp} tg${t.n_gen} d${depth}`);
        assert.equal(row.backend, "llama-bench");
        assert.equal(row.model_key, name);
        assert.equal(row.quantization, "f32");
        assert.equal(row.server_version, t.build_commit);
        assert.equal(row.runs.length, 2, "one run per repetition");
        const speeds = row.runs.map((run) =>
          (pp > 0 ? run.prefill_tokens_per_sec : run.tokens_per_sec) as number
        );
        assert.deepEqual(speeds, t.samples_ts, "each repetition's tokens/s");
        const mean = pp > 0 ? row.prefill_tokens_per_sec_mean : row.tokens_per_sec_mean;
        // samples_ts are printed with six significant digits, avg_ts from the unrounded ones.
        assert.ok(Math.abs((mean as number) - t.avg_ts) < 1e-4 * t.avg_ts, "the mean");
      }

      r = await cli(["--import", file, "--json"], env);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), {
        file,
        tool: "llama-bench",
        records: 4,
        added: 0,
        skipped: 4,
      });
      assert.equal(storedResults(env).length, before + 4, "re-importing adds nothing");
      before += 4;
    }
    const r = await cli(["--list-cache"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      // An imported result names no machine: the file does not say which of the user's it was.
      new RegExp(`^${name}\\s+f32\\s+llama-bench\\s+unknown machine\\s+8 out · depth 32\\s`, "m"),
    );
    assert.match(r.stdout, /^4 cached result\(s\)/m, "the newest of each of the four tests");
    assert.equal(storedResults(env).length, 8, "both llama-bench runs kept in the history");
  },
});
