/**
 * The statements a function runs on a PostgreSQL store, as PostgreSQL receives them
 * (translate.ts: `$n` placeholders) with their values inlined as SQL literals: for `psql` and
 * `EXPLAIN` (perf/dashboard_api_postgres.ts, dashboard_postgres_plans_test.ts).
 *
 * @module
 */
import type { SqlNamed, SqlParam, Statement, StoreDb } from "../../../lib/store/database.ts";
import { bind, translate } from "../../../lib/store/pg/translate.ts";

/** A SQL literal of a bound value. */
function literal(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  return `'${String(v).replaceAll("'", "''")}'`;
}

/** Runs `fn` on `db` and returns the statements it ran, values inlined. */
export function recordPg(db: StoreDb, fn: (db: StoreDb) => unknown): string[] {
  const out: string[] = [];
  const wrap = (sql: string, stmt: Statement): Statement => {
    const note = (args: (SqlParam | SqlNamed)[]) => {
      const t = translate(sql);
      const values = bind(t.slots, args);
      out.push(t.text.replace(/\$(\d+)/g, (_, n) => literal(values[Number(n) - 1])));
    };
    // (The overloads of Statement take either positional values or one object of named ones.)
    const s = stmt as unknown as Record<string, (...a: unknown[]) => unknown>;
    const call = (name: string) => (...a: unknown[]) => {
      note(a as (SqlParam | SqlNamed)[]);
      return s[name]!(...a);
    };
    return { get: call("get"), all: call("all"), run: call("run") } as unknown as Statement;
  };
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(sql, target.prepare(sql));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  fn(proxy);
  return out;
}
