/**
 * A child process for the store tests of `hostile_files_test.ts`, run under the permissions of
 * `deno task webapp`: `begin <db>` starts a result with one run, prints `ready` and waits to be
 * killed; `clear <db> <backup>` clears the cache through the dashboard's code and prints JSON.
 *
 * @module
 */
import { ResultsStore } from "../../lib/store/mod.ts";
import { clearCache } from "../../lib/store/dashboard.ts";

const [action, db, backupFile] = Deno.args;
const store = ResultsStore.open(db!);
const model = { model_key: "m@q4", model_name: "m", quantization: "q4" };
if (action === "begin") {
  const id = store.beginResult({ model, params_hash: "h", backend: "openai", params: {} });
  store.addRun(id, { run_index: 0, tokens_per_sec: 10 });
  Deno.stdout.writeSync(new TextEncoder().encode(`ready ${id}\n`));
  await new Promise(() => setTimeout(() => {}, 60_000)); // killed by the test; ends by itself
} else if (action === "clear") {
  const id = store.beginResult({ model, params_hash: "h", backend: "openai", params: {} });
  store.finishResult(id, { status: "ok" });
  const deleted = await clearCache(store.db, backupFile!);
  Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify({ deleted }) + "\n"));
  store.close();
}
