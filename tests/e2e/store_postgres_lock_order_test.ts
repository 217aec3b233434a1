/**
 * Two processes writing to one PostgreSQL store, interleaved step by step where two writers used
 * to take the same rows in opposite orders (issue 30.3): with one lock order for every write
 * transaction (lib/store/transaction.ts) both writes are stored and the server counts no deadlock.
 */
import assert from "node:assert/strict";
import { ResultsStore } from "../../lib/store/mod.ts";
import { testPostgres } from "../_postgres.ts";
import { interleave, type Interleaving } from "../lib/store/pg/_interleave.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const model = (key: string) => ({ model_key: key, model_name: key, quantization: "Q4_K_M" });
/** The owner token of a process on another machine (counts as alive here). */
const ELSEWHERE = "elsewhere/1:1";

function start(store: ResultsStore, key: string, hash = "h"): number {
  return store.beginResult({ model: model(key), params_hash: hash, backend: "rest", params: {} });
}

/** Both processes' writes went through (no error in either). */
function assertBothStored(seen: Interleaving): void {
  assert.deepEqual(
    [seen.first.error, seen.second.error],
    [undefined, undefined],
    JSON.stringify(seen),
  );
}

Deno.test(
  "an import of several results and a benchmark's run stored meanwhile never deadlock",
  opts,
  async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    const store = ResultsStore.open(url);
    const running = start(store, "bench-model");
    store.close();
    const seen = await interleave(
      server,
      url,
      { op: "import", models: ["imported-a", "imported-b"] },
      { op: "addRun", resultId: running, runIndex: 0 },
    );
    assertBothStored(seen);
    assert.equal(seen.deadlocks, 0);
    const after = ResultsStore.open(url);
    try {
      assert.equal(after.runsOf(running).length, 1);
      assert.equal(after.allResults().filter((r) => r.backend === "llama-bench").length, 2);
      const total = after.db.prepare("SELECT runs FROM totals").get()!.runs;
      assert.equal(total, 5);
    } finally {
      after.close();
    }
  },
);

Deno.test(
  "marking a lost agent's results interrupted while it finishes one of them never deadlocks",
  opts,
  async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    const store = ResultsStore.open(url, { owner: ELSEWHERE });
    const first = start(store, "agent-model", "a");
    const second = start(store, "agent-model", "b");
    store.close();
    const seen = await interleave(
      server,
      url,
      { op: "interruptOwner", owner: ELSEWHERE },
      { op: "finishResult", resultId: second },
    );
    assertBothStored(seen);
    assert.equal(seen.deadlocks, 0);
    const after = ResultsStore.open(url);
    try {
      const status = Object.fromEntries(after.allResults().map((r) => [r.id, r.status]));
      // Both marked interrupted first; the agent's finish, which waited, then stored its result.
      assert.equal(status[first], "failed");
      assert.equal(status[second], "ok");
    } finally {
      after.close();
    }
  },
);

Deno.test(
  "two processes storing the same new model at once both get its one row",
  opts,
  async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    ResultsStore.open(url).close();
    const seen = await interleave(
      server,
      url,
      { op: "upsertModel", modelKey: "new-model" },
      { op: "upsertModel", modelKey: "new-model" },
    );
    assertBothStored(seen);
    assert.equal(seen.first.ok, seen.second.ok, "the same row's id");
    const [row] = await server.admin(
      new URL(url).pathname.slice(1),
      "SELECT COUNT(*)::int AS n FROM localbench.models",
    );
    assert.equal(row!.n, 1);
  },
);
