import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { AppError } from "../../../lib/error.ts";
import { openDatabase } from "../../../lib/store/db.ts";
import { SCHEMA_VERSION } from "../../../lib/store/schema.ts";
import { REPO_ROOT, tempEnv } from "../../_helpers.ts";
import { testPostgres } from "../../_postgres.ts";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

Deno.test("openDatabase() names a damaged store and says to move it aside", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "results.db");
    await Deno.writeTextFile(path, "junk\n");
    const err = thrown(() => openDatabase(path));
    assert.ok(err instanceof AppError);
    assert.equal(err.code, "store_corrupt");
    assert.match(err.message, /results\.db is damaged or not a SQLite database: move it aside/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openDatabase() names a store another program holds locked", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.db");
  openDatabase(path).close();
  const holder = new DatabaseSync(path);
  try {
    holder.exec("PRAGMA locking_mode = EXCLUSIVE");
    holder.exec("BEGIN EXCLUSIVE");
    const err = thrown(() => openDatabase(path, { busyTimeoutMs: 100 }));
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, "store_locked");
    assert.equal(statusOf(err), 409);
    assert.match(err.message, /is locked by another program .*: let it finish or stop it/);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openDatabase() names a store in a folder that cannot be created", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "file"), "");
    const err = thrown(() => openDatabase(join(dir, "file", "results.db")));
    assert.ok(err instanceof AppError);
    assert.equal(err.code, "store_unavailable");
    assert.match(err.message, /Cannot open the results store .*: make its folder writable/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Four processes opening the store at `location` at the same moment (`delayMs` from now, after
 * their start): each must open it at the current schema version.
 */
async function openAtOnce(location: string, delayMs: number): Promise<void> {
  const at = String(Date.now() + delayMs);
  const children = Array.from({ length: 4 }, () =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(REPO_ROOT, "tests/lib/store/_fixtures/opener.ts"), location, at],
      stdout: "piped",
      stderr: "piped",
    }).output());
  const outs = await Promise.all(children);
  const dec = new TextDecoder();
  for (const out of outs) {
    assert.equal(out.code, 0, dec.decode(out.stderr));
    assert.equal(Number(dec.decode(out.stdout)), SCHEMA_VERSION);
  }
}

Deno.test("four processes creating the same new store at once all open it, each migration applied once", async () => {
  await using t = await tempEnv();
  await openAtOnce(join(t.root, "new.db"), 1500);
});

Deno.test({
  name: "processes opening a new PostgreSQL store at the same moment all get it migrated, once",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await openAtOnce(await (await testPostgres()).createDatabase(), 2500);
  },
});
