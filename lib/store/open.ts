/**
 * The results store at the configured location: a SQLite file, its folder created first (with a
 * sentence saying what to change when it cannot be), or a PostgreSQL server.
 *
 * @module
 */
import { dirname } from "node:path";
import { StorageError } from "../error.ts";
import { writeFailureReason } from "../fs.ts";
import { ResultsStore } from "./store.ts";
import { isPostgresUrl } from "./pg/open.ts";

/**
 * Opens the results store at `paths.database` (the configured store: a SQLite file, its folder
 * created, or a `postgres://` URL).
 */
export async function openStore(paths: { database: string }): Promise<ResultsStore> {
  if (isPostgresUrl(paths.database)) return ResultsStore.open(paths.database);
  try {
    await Deno.mkdir(dirname(paths.database), { recursive: true });
  } catch (err) {
    const reason = writeFailureReason(err);
    if (reason === null) throw err;
    throw new StorageError(
      `Cannot create the data folder ${dirname(paths.database)} (${reason}): choose another ` +
        `one with LOCALBENCH_DATA_DIR`,
      { code: "write_failed", cause: err },
    );
  }
  return ResultsStore.open(paths.database);
}
