/**
 * Cache operations of the dashboard: delete one model variant's history, or clear everything
 * after a backup copy of the database. Refused (409) while a benchmark runs.
 *
 * @module
 */
import { exists } from "../fs.ts";
import { join } from "node:path";
import { ConflictError, NotFoundError } from "../error.ts";
import { clearCache, deleteModel } from "../store/mod.ts";
import type { DashboardServices } from "./services.ts";

function requireIdle(svc: DashboardServices, action: string): void {
  const { status } = svc.controller.status();
  if (status !== "idle") {
    throw new ConflictError(`Cannot ${action}: a benchmark is ${status}`, { code: "busy" });
  }
}

/** `YYYYMMDD_HHMMSS` in UTC. */
export function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15);
}

/** Deletes a model variant. @throws {NotFoundError} when unknown, {ConflictError} while running. */
export function deleteCachedModel(
  svc: DashboardServices,
  modelKey: string,
): { model_key: string; deleted_results: number } {
  requireIdle(svc, `delete '${modelKey}'`);
  const n = deleteModel(svc.store.db, modelKey);
  if (n === null) {
    throw new NotFoundError(`Cannot find cached model '${modelKey}'`, { code: "not_found" });
  }
  return { model_key: modelKey, deleted_results: n };
}

/** Backs the database up to `<data dir>/backups/` and clears it. */
export async function clearCacheWithBackup(
  svc: DashboardServices,
): Promise<{ deleted_count: number; backup_file: string }> {
  requireIdle(svc, "clear the cache");
  const dir = join(svc.paths.dataDir, "backups");
  await Deno.mkdir(dir, { recursive: true });
  let file = join(dir, `results_${stamp(svc.now())}.db`);
  for (let i = 1; await exists(file); i++) {
    file = join(dir, `results_${stamp(svc.now())}_${i}.db`);
  }
  return { deleted_count: await clearCache(svc.store.db, file), backup_file: file };
}
