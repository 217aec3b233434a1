/**
 * Records every statement run through a database: its SQL, its arguments and the SQL with the
 * arguments filled in. The plan tests and the dashboard benchmark use it to look at (and replay
 * in the sqlite3 shell) exactly what the store runs, without a copy of the SQL that could drift.
 *
 * @module
 */
import { sqliteOf, type StoreDb } from "../../../lib/store/database.ts";
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";

/** One statement the store ran. */
export interface CapturedStatement {
  sql: string;
  args: unknown[];
  /** The SQL with the bound values in place (SQLite's `sqlite3_expanded_sql`). */
  expanded: string;
}

const RUNS = new Set(["get", "all", "run", "iterate"]);

function recording(stmt: StatementSync, sql: string, out: CapturedStatement[]): StatementSync {
  return new Proxy(stmt, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (!RUNS.has(String(prop))) return value.bind(target);
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        out.push({ sql, args, expanded: target.expandedSQL });
        return result;
      };
    },
  });
}

/** A view of `db` whose statements (prepared or `exec`uted) are recorded into `statements`. */
export function capture(store: StoreDb): { db: DatabaseSync; statements: CapturedStatement[] } {
  const statements: CapturedStatement[] = [];
  const proxy = new Proxy(sqliteOf(store), {
    get(target, prop) {
      if (prop === "prepare") {
        return (sql: string) => recording(target.prepare(sql), sql, statements);
      }
      if (prop === "exec") {
        return (sql: string) => {
          target.exec(sql);
          statements.push({ sql, args: [], expanded: sql.trim() });
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: proxy, statements };
}

/** Runs `EXPLAIN QUERY PLAN` for a captured statement; returns the plan's detail lines. */
export function queryPlan(db: DatabaseSync, stmt: CapturedStatement): string[] {
  const args = stmt.args as SQLInputValue[];
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${stmt.sql}`).all(...args) as { detail: string }[];
  return rows.map((r) => r.detail);
}
