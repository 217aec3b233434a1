/**
 * Migrations of the stored data (not of the tables): one identity per model variant, and
 * intervals within their metric's domain. Each runs inside its migration's transaction.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** The columns a table has now (optional columns may not exist yet in an old database). */
function columnsOf(db: DatabaseSync, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** Model metadata a merged row gives the row it joins where that row does not know it. */
const METADATA = [
  "quantization",
  "architecture",
  "params_size",
  "size_bytes",
  "max_context_length",
  "format",
];

/**
 * Gives every LM Studio variant one identity, `publisher/model@quant` (see `variantIdentity` in
 * lib/bench/target.ts): a model stored under its model key by the SDK backend or `lms ls`
 * (`qwen/qwen3-4b`, quantization `q4_k_m`) is the variant REST stored as `qwen/qwen3-4b@q4_k_m`.
 * Such a row is renamed, or merged into the row of that identity: its results (with their runs,
 * grid cells and load levels) move there; `model_latest` follows through its triggers. A model
 * measured through an OpenAI-compatible server keeps its id (that id names one file).
 *
 * @returns the number of rows renamed or merged
 */
export function mergeVariantIdentities(db: DatabaseSync): number {
  const stale = db.prepare(
    `SELECT m.id, m.model_key || '@' || lower(m.quantization) AS identity FROM models m
     WHERE instr(m.model_key, '@') = 0 AND COALESCE(m.quantization, '') <> ''
       AND EXISTS (SELECT 1 FROM results r WHERE r.model_id = m.id)
       AND NOT EXISTS (SELECT 1 FROM results r WHERE r.model_id = m.id AND r.backend = 'openai')
     ORDER BY m.id`,
  ).all() as { id: number; identity: string }[];
  const have = columnsOf(db, "models");
  const fill = METADATA.filter((c) => have.has(c)).map((c) =>
    `${c} = COALESCE(${c}, (SELECT ${c}
    FROM models o WHERE o.id = :from))`
  );
  const merge = db.prepare(
    `UPDATE models SET ${
      [
        ...fill,
        "first_seen = MIN(first_seen, (SELECT first_seen FROM models o WHERE o.id = :from))",
        "last_seen = MAX(last_seen, (SELECT last_seen FROM models o WHERE o.id = :from))",
      ].join(", ")
    } WHERE id = :to`,
  );
  const find = db.prepare("SELECT id FROM models WHERE model_key = ?");
  const move = db.prepare("UPDATE results SET model_id = ? WHERE model_id = ?");
  const drop = db.prepare("DELETE FROM models WHERE id = ?");
  const rename = db.prepare("UPDATE models SET model_key = ? WHERE id = ?");
  for (const s of stale) {
    const to = find.get(s.identity) as { id: number } | undefined;
    if (to === undefined) {
      rename.run(s.identity, s.id);
      continue;
    }
    move.run(to.id, s.id);
    merge.run({ from: s.id, to: to.id });
    drop.run(s.id);
  }
  return stale.length;
}

/**
 * Puts the stored lower ends of the intervals of `metrics` that are below zero at zero (the
 * domain of times, speeds and counts), as new results are stored (lib/stats.ts).
 *
 * @returns the number of values changed
 */
export function clampIntervals(db: DatabaseSync, metrics: readonly string[]): number {
  const have = columnsOf(db, "results");
  let changed = 0;
  for (const m of metrics) {
    const col = `${m}_ci_low`;
    if (!have.has(col)) continue;
    changed += Number(db.prepare(`UPDATE results SET ${col} = 0 WHERE ${col} < 0`).run().changes);
  }
  return changed;
}
