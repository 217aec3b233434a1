import assert from "node:assert/strict";
import { currentOwner, hostName, ownerAlive, sharedOwner } from "../../../lib/store/owner.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { testPostgres } from "../../_postgres.ts";

Deno.test("an owner of this machine is alive while its process runs, one of another machine always", () => {
  assert.equal(ownerAlive(currentOwner()), true);
  assert.equal(ownerAlive(sharedOwner()), true);
  assert.equal(ownerAlive("99999999:1"), false, "no such process here");
  assert.equal(ownerAlive("here/99999999:1", () => "here"), false);
  assert.equal(ownerAlive("other-box/99999999:1", () => "here"), true, "cannot be checked here");
  assert.equal(ownerAlive(null), false);
});

Deno.test({
  name: "a shared store marks interrupted only what a process of this machine left running",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const url = await (await testPostgres()).createDatabase();
    const start = (store: ResultsStore, hash: string) =>
      store.beginResult({
        model: { model_key: "a@q", model_name: "a", quantization: "q" },
        params_hash: hash,
        backend: "rest",
        params: {},
      });
    const first = ResultsStore.open(url);
    const mine = start(first, "h1");
    const elsewhere = start(first, "h2");
    const owners = first.db.prepare("SELECT owner FROM results ORDER BY id").all();
    assert.equal(owners[0]!.owner, sharedOwner(), "the owner names this machine");
    first.db.prepare("UPDATE results SET owner = ? WHERE id = ?").run(
      `${hostName()}/99999999:1`,
      mine,
    );
    first.db.prepare("UPDATE results SET owner = ? WHERE id = ?").run(
      "other-box/99999999:1",
      elsewhere,
    );
    first.close();
    const again = ResultsStore.open(url);
    try {
      assert.equal(again.interrupted, 1);
      const status = Object.fromEntries(again.allResults().map((r) => [r.id, r.status]));
      assert.deepEqual(status, { [mine]: "failed", [elsewhere]: "running" });
    } finally {
      again.close();
    }
  },
});
