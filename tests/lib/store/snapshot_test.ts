import assert from "node:assert/strict";
import { join } from "node:path";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { tempEnv } from "../../_helpers.ts";
import { seedStore } from "../../routes/_seed.ts";
import { testDashboard } from "../../routes/_dashboard.ts";

Deno.test("a snapshot is built once per state of the store, whoever writes", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "results.db");
  const store = ResultsStore.open(path);
  const other = ResultsStore.open(path);
  try {
    let builds = 0;
    const get = () => store.snapshots.get("n", (db) => ({ builds: ++builds, db: !!db }));
    const first = get();
    assert.equal(get(), first, "unchanged: the same bytes");
    store.upsertModel({ model_key: "a@q4", model_name: "a", quantization: "q4" });
    const second = get();
    assert.notEqual(second.etag, first.etag, "this connection wrote");
    other.upsertModel({ model_key: "b@q4", model_name: "b", quantization: "q4" });
    const third = get();
    assert.notEqual(third.etag, second.etag, "another connection (process) wrote");
    assert.equal(builds, 3);
  } finally {
    store.close();
    other.close();
  }
});

Deno.test("GET /api/results and /api/dashboard/stats answer 304 to their ETag until the store changes", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  for (const path of ["/api/results", "/api/dashboard/stats"]) {
    const res = await d.request(path);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("Content-Type"), "application/json");
    const etag = res.headers.get("ETag")!;
    const body = await res.json();
    const again = await d.request(path, { headers: { "If-None-Match": etag } });
    assert.equal(again.status, 304, path);
    d.web.store.db.exec("DELETE FROM models WHERE model_key = (SELECT MIN(model_key) FROM models)");
    const changed = await d.request(path, { headers: { "If-None-Match": etag } });
    assert.equal(changed.status, 200, `${path} after a change`);
    assert.notDeepEqual(await changed.json(), body);
  }
});
