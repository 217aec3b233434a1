import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import {
  ensureColumns,
  INTERRUPTED_ERROR,
  MIGRATIONS,
  OPTIONAL_COLUMNS,
  ResultsStore,
  SCHEMA_VERSION,
  userVersion,
} from "../../../lib/store/mod.ts";
import { REPO_ROOT, tempEnv } from "../../_helpers.ts";
import { eachBackend, openOn } from "./_backends.ts";

const MODEL = {
  model_key: "org/m@q4_k_m",
  model_name: "org/m",
  quantization: "q4_k_m",
  size_bytes: 1 << 30,
};

function start(store: ResultsStore, hash = "h1") {
  return store.beginResult({
    model: MODEL,
    params_hash: hash,
    backend: "rest",
    params: { prompt: "p" },
    num_runs: 2,
  });
}

eachBackend("ResultsStore keeps models, results and one row per run", async (backend) => {
  const store = await openOn(backend);
  try {
    const id = start(store);
    store.addRun(id, { run_index: 0, tokens_per_sec: 10, ttft_ms: 100 });
    store.addRun(id, { run_index: 1, tokens_per_sec: 12, ttft_ms: 90 });
    assert.equal(
      store.findCached(MODEL.model_key, "h1", null),
      null,
      "a running result is no cache hit",
    );
    store.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 11, runs_ok: 2 } });
    const hit = store.findCached(MODEL.model_key, "h1", null);
    assert.equal(hit?.tokens_per_sec_mean, 11);
    assert.equal(hit?.quantization, "q4_k_m");
    assert.equal(
      store.findCached(MODEL.model_key, "other-params", null),
      null,
      "changed parameters miss",
    );
    assert.deepEqual(store.runsOf(id).map((r) => r.tokens_per_sec), [10, 12]);
  } finally {
    store.close();
  }
});

eachBackend(
  "ResultsStore keeps history: a retest adds a result and the latest view picks the newest",
  async (backend) => {
    const store = await openOn(backend);
    try {
      const a = start(store);
      store.finishResult(a, { status: "ok", aggregates: { tokens_per_sec_mean: 5 } });
      const b = start(store);
      store.finishResult(b, { status: "ok", aggregates: { tokens_per_sec_mean: 7 } });
      const failed = start(store);
      store.finishResult(failed, { status: "failed", error: "boom" });
      assert.equal(store.findCached(MODEL.model_key, "h1", null)?.id, b);
      assert.equal(store.allResults().length, 3);
      assert.deepEqual(store.latestPerIdentity().map((r) => r.id), [b]);
      assert.equal(store.allResults()[2]!.error, "boom");
    } finally {
      store.close();
    }
  },
);

Deno.test("ResultsStore opens in WAL mode at the current schema version", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "results.db");
  const store = ResultsStore.open(path);
  try {
    const mode = store.db.prepare("PRAGMA journal_mode").get() as { journal_mode: string };
    assert.equal(mode.journal_mode, "wal");
    assert.equal(userVersion(store.db), SCHEMA_VERSION);
  } finally {
    store.close();
  }
});

Deno.test("opening a database of an older schema migrates it forward and keeps its rows", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "old.db");
  const old = new DatabaseSync(path);
  old.exec(MIGRATIONS[0]!.sql);
  old.exec("PRAGMA user_version = 1");
  old.exec(`INSERT INTO models (model_key, model_name, quantization, first_seen, last_seen)
            VALUES ('a@q8_0', 'a', 'q8_0', '2026-01-01', '2026-01-01')`);
  old.exec(`INSERT INTO results (model_id, params_hash, backend, status, started_at)
            VALUES (1, 'h', 'sdk', 'ok', '2026-01-01')`);
  old.close();

  const store = ResultsStore.open(path);
  try {
    assert.equal(userVersion(store.db), SCHEMA_VERSION);
    const cols = (store.db.prepare("PRAGMA table_info(runs)").all() as { name: string }[]).map((
      c,
    ) => c.name);
    for (const name of Object.keys(OPTIONAL_COLUMNS.runs!)) assert.ok(cols.includes(name), name);
    assert.equal(
      store.findCached("a@q8_0", "h", null)?.backend,
      "sdk",
      "old row readable through the new view",
    );
  } finally {
    store.close();
  }
});

Deno.test("a newer schema than the tool knows is refused with a clear error", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "future.db");
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  assert.throws(() => ResultsStore.open(path), /schema version \d+ is newer than this tool's/);
});

eachBackend(
  "an insert that fails on a missing column runs the migration again and retries once",
  async (backend) => {
    const store = await openOn(backend);
    try {
      const id = start(store);
      store.db.exec("ALTER TABLE runs DROP COLUMN server_tokens_per_sec");
      store.addRun(id, { run_index: 0, server_tokens_per_sec: 42 });
      assert.equal(store.runsOf(id)[0]!.server_tokens_per_sec, 42);
      assert.throws(
        () => store.addRun(id, { run_index: 1, no_such_metric: 1 }),
        /has no column named no_such_metric|column "no_such_metric" of relation "runs" does not exist/,
      );
    } finally {
      store.close();
    }
  },
);

eachBackend("ensureColumns() adds only the missing optional columns", async (backend) => {
  const store = await openOn(backend);
  try {
    assert.deepEqual(ensureColumns(store.db), []);
    store.db.exec("ALTER TABLE results DROP COLUMN vram_mb");
    assert.deepEqual(ensureColumns(store.db), ["results.vram_mb"]);
  } finally {
    store.close();
  }
});

eachBackend(
  "column names that are not identifiers are refused before reaching SQL",
  async (backend) => {
    const store = await openOn(backend);
    try {
      const id = start(store);
      assert.throws(
        () => store.addRun(id, { run_index: 0, "x; DROP TABLE runs": 1 }),
        /not a valid column name/,
      );
    } finally {
      store.close();
    }
  },
);

Deno.test("a writer killed mid-transaction leaves a consistent database with every completed run", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "crash.db");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(REPO_ROOT, "tests/lib/store/_fixtures/writer.ts"), path, "3"],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  assert.match(text, /^in-transaction \d+/);
  child.kill("SIGKILL");
  await reader.cancel();
  const status = await child.status;
  assert.equal(status.signal, "SIGKILL");

  const check = new DatabaseSync(path);
  assert.deepEqual({ ...check.prepare("PRAGMA integrity_check").get() as object }, {
    integrity_check: "ok",
  });
  check.close();
  const store = ResultsStore.open(path);
  try {
    const [result] = store.allResults();
    // The uncommitted status change is gone; the result its killed writer left running is
    // marked interrupted at this next start.
    assert.equal(result?.status, "failed");
    assert.equal(result?.error, INTERRUPTED_ERROR);
    assert.equal(store.interrupted, 1);
    assert.deepEqual(store.runsOf(result!.id).map((r) => r.run_index), [0, 1, 2]);
  } finally {
    store.close();
  }
});
