/**
 * The results store at the configured path, its folder created first (with a sentence saying
 * what to change when it cannot be).
 *
 * @module
 */
import { dirname } from "node:path";
import { StorageError } from "../error.ts";
import { writeFailureReason } from "../fs.ts";
import { ResultsStore } from "./store.ts";

/** Opens the results store at `paths.database` (the configured paths), creating its folder. */
export async function openStore(paths: { database: string }): Promise<ResultsStore> {
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
