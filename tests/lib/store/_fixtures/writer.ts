/**
 * A writer process for the crash test: stores a model with completed runs, then opens a
 * transaction, writes into it, says so on stdout and waits to be killed.
 */
import { ResultsStore } from "../../../../lib/store/mod.ts";

const path = Deno.args[0]!;
const completed = Number(Deno.args[1] ?? "3");
const store = ResultsStore.open(path);
const id = store.beginResult({
  model: { model_key: "org/crash@q4", model_name: "org/crash", quantization: "q4" },
  params_hash: "h",
  backend: "rest",
  params: {},
  num_runs: completed + 1,
});
for (let i = 0; i < completed; i++) store.addRun(id, { run_index: i, tokens_per_sec: 10 + i });
store.db.exec("BEGIN IMMEDIATE");
store.db.prepare("INSERT INTO runs (result_id, run_index, created_at) VALUES (?, ?, ?)").run(
  id,
  completed,
  "x",
);
store.db.prepare("UPDATE results SET status = 'ok' WHERE id = ?").run(id);
await Deno.stdout.write(new TextEncoder().encode(`in-transaction ${id}\n`));
await new Promise(() => {}); // killed here
