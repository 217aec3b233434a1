/**
 * The store's reads replayed in Debian's sqlite3 shell (another SQLite version than Deno's), with
 * its per-statement counters: pages read and virtual-machine steps must not grow with the
 * history. A derived `latest`, a per-row rescan or a count over the runs grows with it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { tempEnv } from "../../_helpers.ts";
import type { CapturedStatement } from "./_capture.ts";
import { seedHistory } from "./_history_seed.ts";
import { HISTORY_READERS, readEverything } from "./_plan_check.ts";

interface Cost {
  pages: number;
  steps: number;
}

/** Runs the statements in the sqlite3 shell with `.stats stmt`; one cost per statement. */
async function shellCosts(file: string, statements: CapturedStatement[]): Promise<Cost[]> {
  const script = [".stats stmt", ...statements.map((s) => `${s.expanded};`)].join("\n");
  let child;
  try {
    child = new Deno.Command("sqlite3", {
      args: ["-batch", "-readonly", file],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    throw new Error(`this test needs Debian's sqlite3 shell (tools/test_deps.sh installs it)`, {
      cause: err,
    });
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const text = new TextDecoder().decode(out.stdout);
  const num = (re: RegExp) => [...text.matchAll(re)].map((m) => Number(m[1]));
  const hits = num(/^Page cache hits:\s+(\d+)/gm);
  const misses = num(/^Page cache misses:\s+(\d+)/gm);
  const steps = num(/^Virtual Machine Steps:\s+(\d+)/gm);
  assert.equal(steps.length, statements.length, "one block of counters per statement");
  return steps.map((s, i) => ({ pages: hits[i]! + misses[i]!, steps: s }));
}

function seededFile(
  dir: string,
  runs: number,
): { file: string; statements: CapturedStatement[] } {
  const file = join(dir, `history-${runs}.db`);
  const store = ResultsStore.open(file);
  try {
    seedHistory(store.db, { runs, variants: 40 });
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const statements = readEverything(store).filter((s) => !HISTORY_READERS.has(s.reader));
    return { file, statements };
  } finally {
    store.close();
  }
}

Deno.test("with eight times the history, the store's reads cost the same pages and steps in the sqlite3 shell", async () => {
  await using t = await tempEnv();
  const small = seededFile(t.root, 3_000);
  const large = seededFile(t.root, 24_000);
  assert.deepEqual(large.statements.map((s) => s.sql), small.statements.map((s) => s.sql));
  const a = await shellCosts(small.file, small.statements);
  const b = await shellCosts(large.file, large.statements);
  const grown = small.statements.flatMap((s, i) => {
    const [x, y] = [a[i]!, b[i]!];
    // Deeper B-trees add a page or two per seek; a walk over the history grows eightfold.
    return y.pages > 2 * x.pages + 20 || y.steps > 2 * x.steps + 50
      ? [
        `${x.pages} → ${y.pages} pages, ${x.steps} → ${y.steps} steps: ${
          s.sql.replace(/\s+/g, " ").slice(0, 120)
        }`,
      ]
      : [];
  });
  assert.deepEqual(grown, []);
});
