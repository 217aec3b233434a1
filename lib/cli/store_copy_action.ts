/**
 * `--store-copy-to URL`: copies every finished result of the store (`--store`, else the
 * default SQLite store) into the PostgreSQL store at URL, in one transaction; running it again
 * adds nothing (lib/store/copy.ts).
 *
 * @module
 */
import type { Paths } from "../config/mod.ts";
import { badRequest } from "../error.ts";
import {
  type CopyOutcome,
  copyStore,
  isPostgresUrl,
  openStore,
  redactUrl,
  ResultsStore,
} from "../store/mod.ts";

/** What was copied, and where (the URL without its password). */
export type CopySummary = CopyOutcome & { from: string; to: string };

/** Copies the store of `paths` into the PostgreSQL store at `url`. */
export async function copyStoreTo(paths: Paths, url: string): Promise<CopySummary> {
  if (!isPostgresUrl(url)) {
    throw badRequest(
      `--store-copy-to takes a PostgreSQL URL (postgres://user:password@host:5432/db), not '${url}'`,
    );
  }
  if (url === paths.database) {
    throw badRequest("--store-copy-to names the store itself: choose --store, or another URL");
  }
  const source = await openStore(paths);
  try {
    const target = ResultsStore.open(url);
    try {
      const outcome = copyStore(source.db, target.db);
      return { ...outcome, from: redactUrl(paths.database), to: redactUrl(url) };
    } finally {
      target.close();
    }
  } finally {
    source.close();
  }
}

/** The line `--store-copy-to` prints. */
export function copyText(s: CopySummary): string {
  const notes = [
    s.skipped ? `${s.skipped} already there, skipped` : "",
    s.running ? `${s.running} still running, left out` : "",
  ].filter(Boolean).join("; ");
  return `Copied ${s.results} result(s) with ${s.runs} run(s) from ${s.from} to ${s.to}` +
    (notes ? ` (${notes})` : "");
}
