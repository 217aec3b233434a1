/**
 * Two processes writing to one PostgreSQL store, interleaved step by step (tests/e2e/store_postgres_lock_order_test.ts):
 * the first (`_store_child.ts` with `pause`) is held by a test trigger right after its
 * transaction's first counted statement — when it holds what that statement locked — until the
 * second has started its write and waits for a lock; then the first goes on. Without one lock
 * order for every write transaction, this is where two writers deadlock.
 *
 * @module
 */
import pg from "pg";
import { PASSWORD, type TestPostgres } from "../../../_postgres.ts";
import type { ChildOperation } from "./_store_child.ts";

/** The advisory lock the paused transaction waits for. */
const PAUSE_KEY = 4242;

/** The tables whose writes the pause trigger watches (those `store_changes` counts). */
const WATCHED = ["models", "results", "runs", "grid_cells", "load_levels"];

/**
 * Once per transaction of the connection named `lb_pause`: after the first write statement to a
 * counted table (the trigger's name sorts after `<table>_changed`, which fires first), wait for
 * the advisory lock the test holds.
 */
const PAUSE_SQL = `
  CREATE FUNCTION localbench.zz_pause() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF current_setting('application_name') = 'lb_pause'
      AND current_setting('lb.paused', true) IS DISTINCT FROM 'yes' THEN
      PERFORM set_config('lb.paused', 'yes', true);
      PERFORM pg_advisory_xact_lock_shared(${PAUSE_KEY});
    END IF;
    RETURN NULL;
  END $$;
  ${
  WATCHED.map((t) =>
    `CREATE TRIGGER zz_pause AFTER INSERT OR UPDATE OR DELETE ON localbench.${t}
      FOR EACH STATEMENT EXECUTE FUNCTION localbench.zz_pause();`
  ).join("\n")
}`;

/** How a child's write ended. */
export interface ChildOutcome {
  ok?: unknown;
  error?: string;
  sqlState?: string | null;
  detail?: string | null;
}

/** What {@linkcode interleave} saw. */
export interface Interleaving {
  first: ChildOutcome;
  second: ChildOutcome;
  /** Deadlocks the server detected in the database meanwhile (`pg_stat_database`). */
  deadlocks: number;
}

const CHILD = new URL("./_store_child.ts", import.meta.url).pathname;

class Child {
  #process: Deno.ChildProcess;
  #lines: ReadableStreamDefaultReader<string>;
  #buffer = "";

  constructor(url: string, operation: ChildOperation) {
    this.#process = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CHILD, url, JSON.stringify(operation)],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#lines = this.#process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next line the child printed (bounded: a child that prints nothing fails the test). */
  async line(): Promise<string> {
    const deadline = Date.now() + 60_000;
    while (!this.#buffer.includes("\n")) {
      if (Date.now() > deadline) throw new Error("the child printed nothing for 60 s");
      const { value, done } = await this.#lines.read();
      if (done) throw new Error(`the child ended early: ${this.#buffer}`);
      this.#buffer += value;
    }
    const at = this.#buffer.indexOf("\n");
    const line = this.#buffer.slice(0, at);
    this.#buffer = this.#buffer.slice(at + 1);
    return line;
  }

  async go(): Promise<void> {
    const w = this.#process.stdin.getWriter();
    await w.write(new TextEncoder().encode("go\n"));
    await w.close();
  }

  async outcome(): Promise<ChildOutcome> {
    const out = JSON.parse(await this.line()) as ChildOutcome;
    await this.#lines.cancel();
    await this.#process.status;
    return out;
  }
}

/** Polls `query` until it answers a row with `n > 0` (bounded: 20 s). */
async function until(client: pg.Client, what: string, sql: string, params: unknown[]) {
  for (let i = 0; i < 400; i++) {
    const { rows } = await client.query(sql, params);
    if (Number(rows[0]?.n) > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** A superuser session in the database of `url`, and the deadlocks counted there. */
async function adminOf(server: TestPostgres, url: string) {
  const db = new URL(url).pathname.slice(1);
  const client = new pg.Client({
    host: "127.0.0.1",
    port: server.port,
    user: "postgres",
    password: PASSWORD,
    database: db,
  });
  await client.connect();
  const deadlocks = async () =>
    Number(
      (await client.query("SELECT deadlocks FROM pg_stat_database WHERE datname = $1", [db]))
        .rows[0]!.deadlocks,
    );
  /** Waits until the children's sessions have ended: their statistics are flushed then. */
  const childrenGone = () =>
    until(
      client,
      "the children's sessions end",
      `SELECT CASE WHEN COUNT(*) = 0 THEN 1 ELSE 0 END AS n FROM pg_stat_activity
       WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [db],
    );
  /** Waits until a session other than the paused one waits for a lock. */
  const someoneWaits = (what: string) =>
    until(
      client,
      what,
      `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'
         AND application_name <> 'lb_pause' AND pid <> pg_backend_pid()`,
      [db],
    );
  return { client, deadlocks, childrenGone, someoneWaits };
}

/**
 * Runs `first` (paused after its first counted statement) and `second` against the store at
 * `url` (a database of `server`), `second` starting while `first` is paused and `first` going
 * on once `second` waits for a lock.
 */
export async function interleave(
  server: TestPostgres,
  url: string,
  first: ChildOperation,
  second: ChildOperation,
): Promise<Interleaving> {
  const admin = await adminOf(server, url);
  try {
    await admin.client.query(PAUSE_SQL);
    const before = await admin.deadlocks();
    await admin.client.query("SELECT pg_advisory_lock($1)", [PAUSE_KEY]);
    const a = new Child(url, { ...first, pause: true });
    const b = new Child(url, second);
    await Promise.all([a.line(), b.line()]); // both stores open
    await a.go();
    await until(
      admin.client,
      "the first write is paused",
      "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
      [],
    );
    await b.go();
    await admin.someoneWaits("the second write waits for a lock");
    await admin.client.query("SELECT pg_advisory_unlock($1)", [PAUSE_KEY]);
    const [one, two] = await Promise.all([a.outcome(), b.outcome()]);
    await admin.childrenGone();
    await admin.client.query("DROP FUNCTION localbench.zz_pause() CASCADE");
    return { first: one, second: two, deadlocks: (await admin.deadlocks()) - before };
  } finally {
    await admin.client.end();
  }
}

/**
 * Makes a child's write (`operation`) the victim of a deadlock with the test's own session:
 * that session runs `hold` in a transaction, the child's write waits for what it locked, then
 * the session runs `then`, which waits for what the child holds. The child's session detects
 * the cycle (the test's waits 60 s before it looks) and is aborted; the test's session then
 * rolls back. Answers how the child's write ended and the deadlocks counted meanwhile.
 */
export async function deadlockVictim(
  server: TestPostgres,
  url: string,
  operation: ChildOperation,
  hold: string,
  then: string,
): Promise<{ outcome: ChildOutcome; deadlocks: number }> {
  const admin = await adminOf(server, url);
  try {
    await admin.client.query("SET deadlock_timeout = '60s'");
    const before = await admin.deadlocks();
    const child = new Child(url, operation);
    await child.line();
    await admin.client.query("BEGIN");
    await admin.client.query(hold);
    await child.go();
    await admin.someoneWaits("the child's write waits for the test's lock");
    await admin.client.query(then);
    await admin.client.query("ROLLBACK");
    const outcome = await child.outcome();
    await admin.childrenGone();
    return { outcome, deadlocks: (await admin.deadlocks()) - before };
  } finally {
    await admin.client.end();
  }
}
