/**
 * The benchmark command line on a PostgreSQL store (`--store URL`, `$LOCALBENCH_STORE`,
 * `--store-copy-to URL`) against the LM Studio double and a real PostgreSQL server this file
 * starts (tests/_postgres.ts), with the permissions of `deno task bench`; and the one-line errors
 * of a store that cannot be used.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { programPermissions, runDeno, tempEnv } from "../_helpers.ts";
import { PASSWORD, testPostgres } from "../_postgres.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";

const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];
const opts = { sanitizeResources: false, sanitizeOps: false };
const MEASURE = ["--backend", "rest", "--runs", "2", "--n-parallel", "1"];

async function cli(args: string[], vars: Record<string, string>) {
  return await runDeno([...BENCH, ...args], { env: vars });
}

async function listed(args: string[], vars: Record<string, string>) {
  const r = await cli(["--list-cache", "--json", ...args], vars);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { count: number; results: { model_key: string }[] };
}

Deno.test(
  "a benchmark with --store postgres://… keeps its results in PostgreSQL",
  opts,
  async () => {
    await using env = await tempEnv();
    const pg = await testPostgres();
    const url = await pg.createDatabase();
    const d = await startLmStudioDouble({ port: 0 });
    try {
      const r = await cli(
        [...MEASURE, "--base-url", d.url, "--include-models", "qwen3-4b@q4", "--store", url],
        env.vars,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /Done in \d+s: 1 measured, 0 failed/);
      assert.ok(!r.stdout.includes(PASSWORD) && !r.stderr.includes(PASSWORD));
      const db = new URL(url).pathname.slice(1);
      const rows = await pg.admin(
        db,
        "SELECT COUNT(*)::int AS n FROM localbench.runs r JOIN localbench.results s ON s.id = r.result_id WHERE s.status = 'ok'",
      );
      assert.equal(rows[0]!.n, 2, "the two runs are in PostgreSQL");
      assert.ok(
        !existsSync(join(env.vars.LOCALBENCH_DATA_DIR!, "results.db")),
        "no SQLite store was made",
      );
      const list = await listed(["--store", url], env.vars);
      assert.deepEqual(list.results.map((x) => x.model_key), ["qwen/qwen3-4b@q4_k_m"]);
      // $LOCALBENCH_STORE names the same store; a second run is a cache hit there.
      const vars = { ...env.vars, LOCALBENCH_STORE: url };
      assert.equal((await listed([], vars)).count, 1);
      const again = await cli(
        [...MEASURE, "--base-url", d.url, "--include-models", "qwen3-4b@q4"],
        vars,
      );
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /cached/i);
    } finally {
      await d.close();
    }
  },
);

Deno.test("--store-copy-to copies the SQLite store into PostgreSQL once", opts, async () => {
  await using env = await tempEnv();
  const pg = await testPostgres();
  const url = await pg.createDatabase();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli(
      [...MEASURE, "--base-url", d.url, "--include-models", "qwen3-4b"],
      env.vars,
    );
    assert.equal(r.code, 0, r.stderr);
    const local = await listed([], env.vars);
    assert.ok(local.count >= 1);
    const first = await cli(["--store-copy-to", url], env.vars);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`^Copied ${local.count} result\\(s\\) with \\d+ run`));
    assert.ok(!first.stdout.includes(PASSWORD), "the password is never printed");
    const second = await cli(["--store-copy-to", url, "--json"], env.vars);
    assert.equal(second.code, 0, second.stderr);
    const summary = JSON.parse(second.stdout);
    assert.deepEqual([summary.results, summary.skipped], [0, local.count]);
    assert.deepEqual(await listed(["--store", url], env.vars), local);
  } finally {
    await d.close();
  }
});

Deno.test("a PostgreSQL store that cannot be used is one line and exit code 1", opts, async () => {
  await using env = await tempEnv();
  const pg = await testPostgres();
  const url = await pg.createDatabase();
  const oneLine = async (store: string, expected: RegExp) => {
    const r = await cli(["--list-cache", "--store", store], env.vars);
    assert.equal(r.code, 1, r.stderr);
    // (Deno's own "Download …" lines of a first run in a fresh cache are not the program's.)
    const lines = r.stderr.trim().split("\n").filter((l) => !l.startsWith("Download "));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, expected);
    assert.ok(!r.stderr.includes("wrongpass") && !r.stderr.includes(PASSWORD), r.stderr);
  };
  await oneLine(
    url.replace(PASSWORD, "wrongpass"),
    /Cannot log in to the PostgreSQL store .*password/,
  );
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  await oneLine(
    `postgres://localbench:${PASSWORD}@127.0.0.1:${port}/x`,
    /Cannot reach the PostgreSQL store 127\.0\.0\.1:\d+\/x/,
  );
  await oneLine(url.replace(/\/\w+$/, "/no_such_db"), /database does not exist/);
  await oneLine(`${url}?sslmode=require`, /Cannot reach .*SSL/i);
  // A store a newer localbench migrated.
  assert.equal(
    (await listed(["--store", url], env.vars)).count,
    0,
    "an empty database gets the schema",
  );
  await pg.admin(
    new URL(url).pathname.slice(1),
    "UPDATE localbench.schema_version SET version = 999",
  );
  await oneLine(url, /schema version 999 is newer than this tool's \d+: update localbench/);
});
