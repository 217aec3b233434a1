/**
 * A real PostgreSQL server for tests: a cluster made with `initdb` in a temporary folder, run as
 * the `postgres` user (when the tests run as root) on a free loopback port, started once per test
 * file on first use and stopped when the file's tests end. TCP logins need a password
 * (scram-sha-256): the superuser `postgres` and the user `localbench` (password {@linkcode PASSWORD}).
 * Needs Debian's `postgresql` package (tools/test_deps.sh installs it).
 *
 * @module
 */
import pg from "pg";
import { join } from "node:path";

/** The password of the `localbench` and `postgres` users. */
export const PASSWORD = "s3cret-Pw";

/** A running cluster. */
export interface TestPostgres {
  port: number;
  /** A URL for `database` as the `localbench` user (its owner). */
  url(database: string): string;
  /** Creates an empty database owned by `localbench` and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Runs SQL as the superuser in `database`. */
  admin(database: string, sql: string): Promise<Record<string, unknown>[]>;
}

const BIN = "/usr/lib/postgresql/15/bin";
let started: Promise<TestPostgres> | null = null;
let serial = 0;

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

const asRoot = () => Deno.uid() === 0;

function command(program: string, args: string[], quiet = false): Deno.Command {
  const path = join(BIN, program);
  const io = quiet ? { stdout: "null", stderr: "null" } as const : {};
  return asRoot()
    ? new Deno.Command("runuser", { args: ["-u", "postgres", "--", path, ...args], ...io })
    : new Deno.Command(path, { args, ...io });
}

async function run(program: string, args: string[]): Promise<void> {
  const out = await command(program, args).output();
  if (!out.success) {
    throw new Error(`${program} failed: ${new TextDecoder().decode(out.stderr).slice(0, 2000)}`);
  }
}

async function admin(port: number, database: string, sql: string) {
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user: "postgres",
    password: PASSWORD,
    database,
  });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

async function start(): Promise<TestPostgres> {
  const dir = await Deno.makeTempDir({ prefix: "localbench-pg-" });
  const data = join(dir, "data");
  await Deno.writeTextFile(join(dir, "pw"), PASSWORD);
  if (asRoot()) await new Deno.Command("chown", { args: ["-R", "postgres", dir] }).output();
  await run("initdb", [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth-local=trust",
    "--auth-host=scram-sha-256",
    `--pwfile=${join(dir, "pw")}`,
    "--no-sync",
  ]);
  const port = freePort();
  const server = command("postgres", [
    "-D",
    data,
    "-k",
    dir,
    "-p",
    String(port),
    "-h",
    "127.0.0.1",
    "-F",
    "-c",
    "max_connections=60",
  ], true).spawn();
  // Stopped when the test file ends: a fast shutdown, waited for (bounded), then the folder goes.
  globalThis.addEventListener("unload", () => {
    try {
      const pid = Number(Deno.readTextFileSync(join(data, "postmaster.pid")).split("\n")[0]);
      Deno.kill(pid, "SIGINT");
      for (let i = 0; i < 100; i++) {
        try {
          Deno.statSync(`/proc/${pid}`);
        } catch {
          break;
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      }
    } catch {
      server.kill("SIGKILL");
    }
    Deno.removeSync(dir, { recursive: true });
  });
  server.status.then(() => {});
  let last: unknown = null;
  for (let i = 0; i < 150; i++) {
    try {
      await admin(port, "postgres", "SELECT 1");
      last = null;
      break;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (last) throw new Error(`PostgreSQL did not start on port ${port}: ${last}`);
  await admin(port, "postgres", `CREATE ROLE localbench LOGIN PASSWORD '${PASSWORD}'`);
  const url = (db: string) => `postgres://localbench:${PASSWORD}@127.0.0.1:${port}/${db}`;
  return {
    port,
    url,
    admin: (db, sql) => admin(port, db, sql),
    async createDatabase(name = `t${Date.now()}_${++serial}`) {
      await admin(port, "postgres", `CREATE DATABASE ${name} OWNER localbench`);
      return url(name);
    },
  };
}

/** The test file's cluster, started on first use. */
export function testPostgres(): Promise<TestPostgres> {
  return started ??= start();
}
