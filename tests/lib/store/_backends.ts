/**
 * The two store backends for tests that must hold on both: SQLite (in memory) and PostgreSQL (a
 * new database in the test file's own cluster, tests/_postgres.ts). `eachBackend` registers a
 * test once per backend, its name ending with the backend's.
 *
 * @module
 */
import { ResultsStore, type StoreOptions } from "../../../lib/store/mod.ts";
import { testPostgres } from "../../_postgres.ts";

/** A backend: its name and how to open a new, empty store on it. */
export interface Backend {
  name: "sqlite" | "postgres";
  /** A new, empty store's location (a path or URL). */
  location(): Promise<string>;
}

export const BACKENDS: readonly Backend[] = [
  { name: "sqlite", location: () => Promise.resolve(":memory:") },
  { name: "postgres", location: async () => await (await testPostgres()).createDatabase() },
];

/** Opens a new, empty store on `backend`. */
export async function openOn(backend: Backend, options: StoreOptions = {}): Promise<ResultsStore> {
  return ResultsStore.open(await backend.location(), options);
}

/**
 * Registers `fn` once per backend (`name (sqlite)`, `name (postgres)`). The PostgreSQL server
 * is shared by the file's tests and lives until the file ends: the resource sanitizer is off.
 */
export function eachBackend(name: string, fn: (backend: Backend) => Promise<void> | void): void {
  for (const backend of BACKENDS) {
    Deno.test({
      name: `${name} (${backend.name})`,
      sanitizeResources: backend.name === "sqlite",
      sanitizeOps: backend.name === "sqlite",
      fn: () => fn(backend),
    });
  }
}
