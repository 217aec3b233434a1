/**
 * Stores results measured by another tool (llama-bench, `vllm bench serve`) beside localbench's
 * own: one result per imported record, finished as it is written, with its runs. Every record
 * carries a content hash (`results.import_hash`); a record already stored is skipped, so
 * importing a file again adds nothing. One file is one transaction: it is stored whole or not at
 * all.
 *
 * @module
 */
import { transaction, withColumnRetry } from "./db.ts";
import { insertRow, type ModelRecord, type Row, type RunRecord, updateRow } from "./rows.ts";
import type { ResultsStore } from "./store.ts";

/** One result read from another tool's output, ready to store. */
export interface ImportedResult {
  /** The content hash of the record it was read from. */
  import_hash: string;
  model: ModelRecord;
  /** The tool as the result's backend, e.g. `llama-bench`. */
  backend: string;
  params_hash: string;
  /** Every parameter, stored as `params_json` (the identity's and the `source` note). */
  params: Record<string, unknown>;
  /** When the tool measured it (ISO 8601); null: unknown (stamped with the import's time). */
  measured_at: string | null;
  status: "ok" | "partial" | "failed";
  error?: string | null;
  num_runs: number;
  n_parallel?: number | null;
  runs: RunRecord[];
  /** Aggregate columns of `results`. */
  aggregates: Row;
}

/** What {@linkcode storeImported} did. */
export interface ImportOutcome {
  /** Ids of the results added. */
  added: number[];
  /** Records skipped: already stored (same content hash), or twice in the file. */
  skipped: number;
}

function modelId(store: ResultsStore, model: ModelRecord, now: string): number {
  const row: Row = {
    model_key: model.model_key,
    model_name: model.model_name,
    quantization: model.quantization,
    architecture: model.architecture ?? null,
    params_size: model.params_size ?? null,
    size_bytes: model.size_bytes ?? null,
    last_seen: now,
  };
  const found = store.db.prepare("SELECT id FROM models WHERE model_key = ?")
    .get(model.model_key) as { id: number } | undefined;
  if (!found) return insertRow(store.db, "models", { ...row, first_seen: now });
  // A model the benchmark already knows keeps what it measured; only gaps are filled.
  const known = store.db.prepare("SELECT * FROM models WHERE id = ?").get(found.id) as Row;
  const gaps = Object.fromEntries(
    Object.entries(row).filter(([k, v]) => v !== null && (known[k] ?? null) === null),
  );
  updateRow(store.db, "models", found.id, { ...gaps, last_seen: now });
  return found.id;
}

/**
 * Stores the results of one imported file in one transaction, skipping every record whose
 * content hash is stored already. `now` stamps the models' `last_seen` and the runs.
 */
export function storeImported(
  store: ResultsStore,
  results: readonly ImportedResult[],
  now: string = new Date().toISOString(),
): ImportOutcome {
  return withColumnRetry(store.db, () =>
    transaction(store.db, () => {
      const seen = store.db.prepare("SELECT 1 AS x FROM results WHERE import_hash = ? LIMIT 1");
      const hashes = new Set<string>();
      const added: number[] = [];
      let skipped = 0;
      for (const r of results) {
        if (hashes.has(r.import_hash) || seen.get(r.import_hash) !== undefined) {
          skipped++;
          continue;
        }
        hashes.add(r.import_hash);
        const id = insertRow(store.db, "results", {
          model_id: modelId(store, r.model, now),
          params_hash: r.params_hash,
          backend: r.backend,
          status: "running",
          started_at: r.measured_at ?? now,
          params_json: JSON.stringify(r.params),
          num_runs: r.num_runs,
          n_parallel: r.n_parallel ?? null,
          import_hash: r.import_hash,
        });
        for (const run of r.runs) {
          insertRow(store.db, "runs", { ...run, result_id: id, created_at: now });
        }
        updateRow(store.db, "results", id, {
          ...r.aggregates,
          status: r.status,
          error: r.error ?? null,
          finished_at: r.measured_at ?? now,
        });
        added.push(id);
      }
      return { added, skipped };
    }));
}
