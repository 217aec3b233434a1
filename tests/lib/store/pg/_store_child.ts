/**
 * A second process writing to a PostgreSQL store through the store's own API, for the lock-order
 * tests (tests/e2e/store_postgres_lock_order_test.ts, transaction_test.ts): `deno run -A _store_child.ts URL OPERATION`, OPERATION a JSON
 * object naming one write. With `"pause": true` the connection is named `lb_pause`, which the
 * tests' pause trigger (`_interleave.ts`) holds after the transaction's first counted statement.
 * Prints `ready` once the store is open, writes when a line comes on standard input, then
 * prints `{"ok": …}` or `{"error": message, "sqlState": …}` and exits 0 or 1.
 *
 * @module
 */
import { ResultsStore, storeImported } from "../../../../lib/store/mod.ts";
import { deleteModel } from "../../../../lib/store/mod.ts";
import { print } from "../../../../lib/log.ts";

/** One write a child makes. */
export type ChildOperation =
  & { pause?: boolean }
  & (
    | { op: "interruptOwner"; owner: string }
    | { op: "finishResult"; resultId: number }
    | { op: "addRun"; resultId: number; runIndex: number }
    | { op: "import"; models: string[] }
    | { op: "deleteModel"; modelKey: string }
    | { op: "upsertModel"; modelKey: string }
  );

const model = (key: string) => ({ model_key: key, model_name: key, quantization: "Q4_K_M" });

function perform(store: ResultsStore, o: ChildOperation): unknown {
  switch (o.op) {
    case "interruptOwner":
      return store.interruptOwner(o.owner);
    case "finishResult":
      return store.finishResult(o.resultId, {
        status: "ok",
        aggregates: { tokens_per_sec_mean: 42 },
      });
    case "addRun":
      return store.addRun(o.resultId, { run_index: o.runIndex, tokens_per_sec: 40 });
    case "import":
      return storeImported(
        store,
        o.models.map((key, i) => ({
          import_hash: `${key}-${i}`,
          model: model(key),
          backend: "llama-bench",
          params_hash: "imported",
          params: { source: "test" },
          measured_at: null,
          status: "ok" as const,
          num_runs: 2,
          runs: [{ run_index: 0, tokens_per_sec: 10 }, { run_index: 1, tokens_per_sec: 12 }],
          aggregates: { tokens_per_sec_mean: 11 },
        })),
      ).added;
    case "deleteModel":
      return deleteModel(store.db, o.modelKey);
    case "upsertModel":
      return store.upsertModel(model(o.modelKey));
  }
}

if (import.meta.main) {
  const [url, text] = Deno.args;
  const operation = JSON.parse(text!) as ChildOperation;
  const store = ResultsStore.open(url!);
  let code = 0;
  try {
    // Opened (migrated): the test says when to write.
    print("ready");
    await Deno.stdin.readable.getReader().read();
    if (operation.pause) store.db.exec("SET application_name = 'lb_pause'");
    print(JSON.stringify({ ok: perform(store, operation) ?? null }));
  } catch (err) {
    const e = err as { message?: string; sqlState?: string; detail?: string };
    print(JSON.stringify({
      error: String(e.message ?? err),
      sqlState: e.sqlState ?? null,
      detail: e.detail ?? null,
    }));
    code = 1;
  } finally {
    store.close();
  }
  Deno.exit(code);
}
