/**
 * The mechanical part of the store's SQL on PostgreSQL: placeholders (`?` and `:name`, SQLite's)
 * become `$1`, `$2`…, and SQLite's planner hints go (`INDEXED BY index`; `CROSS JOIN … ON`, which
 * only fixes SQLite's join order, becomes `JOIN … ON`). Quoted text and comments are left alone.
 * SQL that means something different on the two engines is written per dialect instead
 * (see database.ts `dialectOf`).
 *
 * @module
 */

/** A statement for PostgreSQL and, per `$n`, which argument it takes. */
export interface Translated {
  text: string;
  /** `$n` takes positional argument `slots[n-1]` (a number) or the named one (a string). */
  slots: (number | string)[];
}

const HINTS = /\bINDEXED\s+BY\s+\w+\s*|\bCROSS(\s+JOIN)\b/giy;

/**
 * Translates one statement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { translate } from "./translate.ts";
 * const t = translate("SELECT * FROM a CROSS JOIN b INDEXED BY i ON b.x = a.x WHERE a.k = :k AND a.y = ? AND a.z = :k AND a.s = '?'");
 * assert.equal(t.text, "SELECT * FROM a JOIN b ON b.x = a.x WHERE a.k = $1 AND a.y = $2 AND a.z = $1 AND a.s = '?'");
 * assert.deepEqual(t.slots, ["k", 0]);
 * ```
 */
export function translate(sql: string): Translated {
  const slots: (number | string)[] = [];
  const named = new Map<string, number>();
  let positional = 0;
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end < 0 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "?") {
      slots.push(positional++);
      out += `$${slots.length}`;
      i++;
    } else if (
      c === ":" && sql[i + 1] !== ":" && sql[i - 1] !== ":" && /[A-Za-z_]/.test(sql[i + 1] ?? "")
    ) {
      const name = /^[A-Za-z_]\w*/.exec(sql.slice(i + 1))![0];
      let n = named.get(name);
      if (n === undefined) {
        slots.push(name);
        named.set(name, n = slots.length);
      }
      out += `$${n}`;
      i += 1 + name.length;
    } else if ((c === "I" || c === "i" || c === "C" || c === "c") && !/\w/.test(sql[i - 1] ?? "")) {
      HINTS.lastIndex = i;
      const m = HINTS.exec(sql);
      if (m) {
        out += m[1] ? "JOIN" : "";
        i += m[0].length;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, slots };
}

/** The arguments of a call in `$n` order. */
export function bind(slots: readonly (number | string)[], args: readonly unknown[]): unknown[] {
  const first = args[0];
  const named = args.length === 1 && first !== null && typeof first === "object" &&
      !(first instanceof Uint8Array)
    ? first as Record<string, unknown>
    : null;
  return slots.map((s) => {
    const v = typeof s === "number" ? args[s] : named?.[s];
    return typeof v === "bigint" ? v.toString() : v ?? null;
  });
}
