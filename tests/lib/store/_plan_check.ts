/**
 * The rule the store's query plans must keep: the history tables (`results`, `runs`) are only
 * ever reached by a key that bounds the rows read by one variant or one result — the rowid,
 * `model_id = ?` or `result_id = ?` — never scanned, never searched by `status` alone (that is a
 * walk over every finished result), never given an automatic index (built from a full scan).
 * A query that derives "latest" from the history, or scans it again per row, breaks the rule.
 *
 * @module
 */
import { sqliteOf, type StoreDb } from "../../../lib/store/database.ts";
import { capture, type CapturedStatement, queryPlan } from "./_capture.ts";
import {
  comparableModels,
  dashboardStats,
  modelHistory,
  resultsTable,
} from "../../../lib/store/dashboard.ts";
import { cacheListing, modelOnMachines, type ResultsStore } from "../../../lib/store/mod.ts";

const HISTORY = new Set(["results", "runs"]);
const TABLE_REF =
  /\b(?:FROM|JOIN)\s+(\w+)\b(?:\s+(?:AS\s+)?(?!ON\b|WHERE\b|JOIN\b|CROSS\b|INDEXED\b|GROUP\b|ORDER\b|LIMIT\b|LEFT\b|INNER\b)(\w+))?/gi;
const BOUNDING_KEY = /\((?:[^)]*\b)?(rowid=\?|model_id=\?|result_id=\?)/;

/**
 * Alias (and table name) → table or CTE name, from the SQL text. An alias used for a history
 * table and for something else in the same statement is refused: the plan would be ambiguous.
 */
function tablesOf(sql: string): Map<string, string> {
  const map = new Map<string, string>();
  const set = (alias: string, table: string) => {
    const had = map.get(alias);
    if (had !== undefined && had !== table && (HISTORY.has(had) || HISTORY.has(table))) {
      throw new Error(`alias '${alias}' names both ${had} and ${table}: rename one`);
    }
    map.set(alias, table);
  };
  for (const m of sql.matchAll(TABLE_REF)) {
    const table = m[1]!.toLowerCase();
    set(table, table);
    if (m[2]) set(m[2], table);
  }
  return map;
}

/** What is wrong with a plan (empty: nothing). */
export function historyAccessProblems(sql: string, plan: string[]): string[] {
  const tables = tablesOf(sql);
  const problems: string[] = [];
  for (const line of plan) {
    const m = /^(SCAN|SEARCH) (\w+)/.exec(line);
    if (!m) continue;
    const table = tables.get(m[2]!);
    if (!table || !HISTORY.has(table)) continue;
    if (m[1] === "SCAN") problems.push(`scans ${table}: ${line}`);
    else if (/AUTOMATIC/.test(line)) problems.push(`builds an index over ${table}: ${line}`);
    else if (!BOUNDING_KEY.test(line)) problems.push(`walks ${table} without a key: ${line}`);
  }
  return problems;
}

/** Problems of every captured statement, labelled with the start of its SQL. */
export function planProblems(store: StoreDb, statements: CapturedStatement[]): string[] {
  const db = sqliteOf(store);
  return statements.flatMap((s) =>
    historyAccessProblems(s.sql, queryPlan(db, s)).map((p) =>
      `${p}\n    in: ${s.sql.replace(/\s+/g, " ").slice(0, 160)}`
    )
  );
}

/** A model key and name present in the history seed. */
export const SEEDED_KEY = "qwen/qwen3-4b@q4_k_m";

/** A recorded statement and the read that ran it. */
export type ReadStatement = CapturedStatement & { reader: string };

/** Reads whose output (so whose cost) grows with one model's history by design. */
export const HISTORY_READERS = new Set(["modelHistory"]);

/**
 * Runs every read the dashboard, the cache commands and the reports make, through a recording
 * view of the store's database; returns the statements with the name of the read.
 */
export function readEverything(store: ResultsStore): ReadStatement[] {
  const real = store.db;
  const recorded = capture(real);
  const db = recorded.db;
  const writable = store as unknown as { db: StoreDb };
  const out: ReadStatement[] = [];
  const reads: [string, () => unknown][] = [
    ["resultsTable", () => resultsTable(db)],
    ["dashboardStats", () => dashboardStats(db)],
    ["comparableModels", () => comparableModels(db)],
    ["modelHistory", () => modelHistory(db, SEEDED_KEY)],
    ["modelHistory", () => modelHistory(db, SEEDED_KEY.split("@")[0]!)],
    [
      "modelHistory",
      () => modelHistory(db, SEEDED_KEY, { kind: "downsampled", perLine: 8 }),
    ],
    [
      "modelHistory",
      () => modelHistory(db, SEEDED_KEY, { kind: "page", limit: 5, before: 1_000 }),
    ],
    ["findCached", () => store.findCached(SEEDED_KEY, "h1", null)],
    ["modelOnMachines", () => modelOnMachines(db, SEEDED_KEY.split("@")[0]!)],
    ["latestPerIdentity", () => store.latestPerIdentity()],
    ["runsOf", () => store.runsOf(1)],
    ["cacheListing", () => cacheListing(store)],
  ];
  writable.db = db;
  try {
    for (const [reader, read] of reads) {
      const before = recorded.statements.length;
      read();
      for (const s of recorded.statements.slice(before)) out.push({ ...s, reader });
    }
  } finally {
    writable.db = real;
  }
  return out;
}
