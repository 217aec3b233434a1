import assert from "node:assert/strict";
import { REPO_ROOT, runDeno, tempEnv } from "./_helpers.ts";
import { staticGraph } from "../tools/import_graph.ts";

Deno.test("cli.ts loads only the command line at start: no engine, client, exporter or their packages", async () => {
  const graph = await staticGraph(REPO_ROOT, "cli.ts");
  // commander parses the flags; valibot is the configuration schema every start checks the files
  // against (its cost is in perf/startup.ts).
  assert.deepEqual(graph.npm, ["commander", "valibot"]);
  const heavy = graph.files.filter((f) =>
    /^lib\/(bench|reports|modelserver|engine|dashboard|host)\//.test(f)
  );
  assert.deepEqual(heavy, []);
  assert.ok(graph.files.includes("lib/cli/main.ts"), graph.files.join(", "));
});

Deno.test("cli.ts still loads the engine and the exporters when a command needs them", async () => {
  await using t = await tempEnv();
  // --export-only on an empty store reaches the report command (loaded on demand) and fails there.
  const r = await runDeno(["run", "-A", "cli.ts", "--export-only"], { env: t.vars });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /Cannot export: no stored results match the filters/);
});
