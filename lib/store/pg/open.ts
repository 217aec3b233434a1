/**
 * Opening a PostgreSQL store from its URL (`postgres://user:pass@host:5432/db?sslmode=require`):
 * the URL's `sslmode` becomes `pg`'s `ssl` option (libpq's meanings: `disable` none, `prefer` and
 * `require` encrypted without checking the certificate, `verify-ca` and `verify-full` checked),
 * and a failure to connect becomes one sentence naming the server without the password.
 *
 * @module
 */
import { AppError, messageOf, StorageError, UsageError } from "../../error.ts";
import { PgError } from "./bridge.ts";
import { PgDatabase } from "./database.ts";

/** Whether `location` names a PostgreSQL store rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The store's URL as printed: the password replaced by `***`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redactUrl } from "./open.ts";
 * assert.equal(redactUrl("postgres://bench:hunter2@db:5432/lb"), "postgres://bench:***@db:5432/lb");
 * ```
 */
export function redactUrl(location: string): string {
  try {
    const u = new URL(location);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return location.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}

/** `pg`'s connection string and `ssl` option for a store URL. */
export function connectionOf(
  url: string,
): { connectionString: string; ssl: boolean | { rejectUnauthorized: boolean } | undefined } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(
      `Invalid store URL ${redactUrl(url)}: expected postgres://user:password@host:5432/database`,
      { code: "invalid_argument" },
    );
  }
  if (u.pathname.length <= 1) {
    throw new UsageError(
      `Invalid store URL ${
        redactUrl(url)
      }: it names no database (postgres://user:password@host:5432/database)`,
      { code: "invalid_argument" },
    );
  }
  const mode = u.searchParams.get("sslmode");
  u.searchParams.delete("sslmode");
  const ssl = mode === null ? undefined : {
    disable: false,
    allow: undefined,
    prefer: { rejectUnauthorized: false },
    require: { rejectUnauthorized: false },
    "verify-ca": true,
    "verify-full": true,
  }[mode];
  if (
    mode !== null &&
    !(mode in { disable: 1, allow: 1, prefer: 1, require: 1, "verify-ca": 1, "verify-full": 1 })
  ) {
    throw new UsageError(
      `Invalid sslmode '${mode}' in the store URL: disable, prefer, require, verify-ca or verify-full`,
      { code: "invalid_argument" },
    );
  }
  return { connectionString: u.toString(), ssl };
}

/** `host:port/database` of a store URL, for messages. */
export function serverLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "the PostgreSQL server";
  }
}

/** Connects to the PostgreSQL store at `url` (not yet migrated). */
export function openPostgres(url: string): PgDatabase {
  const { connectionString, ssl } = connectionOf(url);
  return PgDatabase.connect(connectionString, { ssl, label: serverLabel(url) });
}

/** The one-sentence error for a PostgreSQL store that could not be opened. */
export function pgOpenError(url: string, err: unknown): unknown {
  if (err instanceof AppError) return err;
  const where = `the PostgreSQL store ${serverLabel(url)}`;
  const state = err instanceof PgError ? err.sqlState : undefined;
  const text = messageOf(err).replaceAll(/\s+/g, " ");
  if (state === "28P01" || state === "28000") {
    return new StorageError(
      `Cannot log in to ${where} (${text}): check the user and password in the store URL`,
      { code: "store_auth_failed", cause: err },
    );
  }
  if (state === "3D000") {
    return new StorageError(
      `Cannot open ${where}: the database does not exist (create it, e.g. createdb, or fix the URL)`,
      { code: "store_unavailable", cause: err },
    );
  }
  if (state === "42501") {
    return new StorageError(
      `Cannot set up ${where} (${text}): the user needs the CREATE privilege on the database ` +
        `(or an administrator creates the schema localbench for it)`,
      { code: "store_unavailable", cause: err },
    );
  }
  if (/schema version/.test(text)) {
    return new StorageError(`${text}: update localbench`, { code: "store_too_new", cause: err });
  }
  if (state === undefined || state.startsWith("08") || state === "57P03") {
    return new StorageError(
      `Cannot reach ${where} (${text}): start the server, or check the host, port and ` +
        `sslmode in the store URL`,
      { code: "store_unavailable", cause: err },
    );
  }
  return err;
}
