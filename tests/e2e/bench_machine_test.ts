/**
 * The machine of a benchmark, end to end: `cli.ts` with the permissions of `deno task bench`
 * against the LM Studio double records this machine with every result, `--list-cache` names
 * it, and a result counts as cached only on the machine that measured it.
 */
import assert from "node:assert/strict";
import { hostname } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { programPermissions, runDeno, tempEnv } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";

const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];

Deno.test("a benchmark stores the machine it ran on, --list-cache names it, and the cache is per machine", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  const args = ["--backend", "rest", "--base-url", d.url, "--runs", "2"].concat(
    ["--n-parallel", "1", "--include-models", "qwen3-4b@q4"],
  );
  const cli = (more: string[] = []) => runDeno([...BENCH, ...args, ...more], { env: env.vars });
  try {
    const first = await cli();
    assert.equal(first.code, 0, first.stderr);
    const file = join(env.dataDir, "results.db");
    const db = new DatabaseSync(file, { readOnly: true });
    const result = { ...db.prepare("SELECT machine_id, system_json FROM results").get() };
    const machine = { ...db.prepare("SELECT * FROM machines").get() };
    db.close();
    assert.match(String(result.machine_id), /^[0-9a-f]{16}$/);
    assert.equal(machine.id, result.machine_id);
    assert.equal(machine.hostname, hostname());
    assert.ok(
      Number(machine.cpu_cores) >= 1 && Number(machine.ram_gb) > 0,
      JSON.stringify(machine),
    );
    assert.match(String(machine.model_server), new RegExp(d.url.replace(/[.:/]/g, ".")));
    const system = JSON.parse(String(result.system_json));
    assert.equal(system.id, result.machine_id);
    assert.equal(system.hostname, hostname());
    assert.ok(Array.isArray(system.gpus));
    assert.ok("model_server_version" in system);

    const listed = await runDeno([...BENCH, "--list-cache"], { env: env.vars });
    assert.equal(listed.code, 0, listed.stderr);
    const [head, , row] = listed.stdout.split("\n");
    assert.match(head!, /^Model\s+Quant\s+Backend\s+Machine\s+Workload/);
    assert.ok(row!.includes(` ${hostname()} `), listed.stdout);
    const json = JSON.parse(
      (await runDeno([...BENCH, "--list-cache", "--json"], { env: env.vars })).stdout,
    );
    assert.equal(json.results[0].machine_id, result.machine_id);
    assert.equal(json.results[0].machine_name, hostname());

    // The same machine: already measured.
    const again = await cli();
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /cached \(use --retest/);
    // Its result moved to another machine: this one has measured nothing, so it measures.
    const rw = new DatabaseSync(file);
    rw.exec(`INSERT INTO machines (id, hostname, description_json, first_seen, last_seen)
      VALUES ('ffffffffffffffff', 'other-box', '{}', '2026-01-01', '2026-01-01')`);
    rw.exec("UPDATE results SET machine_id = 'ffffffffffffffff'");
    rw.close();
    const elsewhere = await cli();
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.doesNotMatch(elsewhere.stderr, /cached \(use --retest/);
    const after = new DatabaseSync(file, { readOnly: true });
    const machines = after.prepare(
      "SELECT machine_id, COUNT(*) AS n FROM results GROUP BY machine_id ORDER BY machine_id",
    ).all().map((r) => [r.machine_id, r.n]);
    after.close();
    assert.deepEqual(machines, [[result.machine_id, 1], ["ffffffffffffffff", 1]]);
  } finally {
    await d.close();
  }
});
