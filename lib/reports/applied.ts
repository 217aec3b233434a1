/**
 * The requested and applied values of every report entry, merged into one row per value: what
 * was asked, what the server ran with (per model when they differ) and whether it applied.
 *
 * @module
 */
import { NOT_APPLIED } from "../bench/mod.ts";
import type { ReportEntry } from "./model.ts";
import { shortModelName } from "../shared/model_name.ts";

/** One value across the entries. */
export interface AppliedRow {
  name: string;
  requested: string;
  /** What the server ran with (`a (model1); b (model2)` when models differ). */
  applied: string;
  /** True when any entry marks it not applied, changed or ignored. */
  not_applied: boolean;
  /** Why, when not applied. */
  note: string | null;
}

const text = (v: unknown): string =>
  v === null || v === undefined ? "server default" : Array.isArray(v) ? v.join(", ") : String(v);

/** One row per value, in the order of the first entry that has it. */
export function appliedRows(entries: readonly ReportEntry[]): AppliedRow[] {
  const rows = new Map<
    string,
    { requested: Set<string>; applied: Map<string, string[]>; bad: boolean; note: string | null }
  >();
  for (const e of entries) {
    const applied = e.applied;
    if (!applied) continue;
    const model = shortModelName(e.row.model_key);
    for (const [name, v] of Object.entries(applied)) {
      const row = rows.get(name) ??
        {
          requested: new Set<string>(),
          applied: new Map<string, string[]>(),
          bad: false,
          note: null,
        };
      row.requested.add(text(v.requested));
      const shown = v.status === "ignored"
        ? "–"
        : v.status === "not_applied" && v.applied === null
        ? "server's own (not reported)"
        : text(v.applied);
      row.applied.set(shown, [...(row.applied.get(shown) ?? []), model]);
      if (NOT_APPLIED.has(v.status)) {
        row.bad = true;
        row.note ??= v.note ?? null;
      }
      rows.set(name, row);
    }
  }
  return [...rows.entries()].map(([name, r]) => ({
    name,
    requested: [...r.requested].join("; "),
    applied: r.applied.size === 1
      ? [...r.applied.keys()][0]!
      : [...r.applied.entries()].map(([v, models]) => `${v} (${models.join(", ")})`).join("; "),
    not_applied: r.bad,
    note: r.bad ? r.note : null,
  }));
}

/** `requested → applied`, with "NOT APPLIED" and the reason when it did not apply. */
export function appliedText(row: AppliedRow): string {
  const same = row.requested === row.applied;
  const base = same ? row.requested : `${row.requested} → ${row.applied}`;
  return row.not_applied ? `${base} · NOT APPLIED${row.note ? ` (${row.note})` : ""}` : base;
}
