import assert from "node:assert/strict";
import { staticGraph } from "../../../tools/import_graph.ts";
import { REPO_ROOT } from "../../_helpers.ts";

Deno.test("the model-server clients and the dashboard load the LM Studio SDK only when the SDK backend is used", async () => {
  for (const entry of ["lib/modelserver/mod.ts", "webapp.ts", "lib/bench/mod.ts"]) {
    const graph = await staticGraph(REPO_ROOT, entry);
    assert.ok(!graph.npm.includes("@lmstudio/sdk"), `${entry} loads @lmstudio/sdk at start`);
    assert.ok(graph.files.includes("lib/modelserver/lmstudio_sdk.ts"), entry);
  }
});
