/**
 * `--import PATH`: reads another tool's result file (parse.ts) and stores each of its results
 * beside localbench's own (lib/store/imported.ts: one transaction per file, a record already
 * stored is skipped). A malformed file stores nothing.
 *
 * @module
 */
import { type ResultsStore, storeImported } from "../../store/mod.ts";
import { importError } from "./record.ts";
import { parseImport } from "./parse.ts";

/** What an import did. */
export interface ImportSummary {
  /** The tool whose output the file is. */
  tool: string;
  /** Records read from the file. */
  records: number;
  /** Results added. */
  added: number;
  /** Records stored before (or twice in the file), left out. */
  skipped: number;
}

/** Reads `path` and stores its results in `store` (one transaction). */
export async function importFile(store: ResultsStore, path: string): Promise<ImportSummary> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound
      ? "no such file"
      : err instanceof Deno.errors.IsADirectory
      ? "a folder, not a file"
      : (err as Error).message;
    throw importError(path, null, why);
  }
  const { tool, results } = parseImport(text, path);
  const { added, skipped } = storeImported(store, results);
  return { tool, records: results.length, added: added.length, skipped };
}
