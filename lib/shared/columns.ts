/**
 * A table sent in columns (`GET /api/results`): the column names once and one array of values
 * per row, instead of one object per row repeating every name — a third of the bytes to build,
 * compress, send and parse. Browser-safe.
 *
 * @module
 */

/** Column names and one array of values per row, in the names' order. */
export interface ColumnTable {
  columns: string[];
  rows: unknown[][];
}

/** The rows of `table` as objects keyed by the column names. */
export function rowsOf<T = Record<string, unknown>>(table: ColumnTable): T[] {
  const { columns, rows } = table;
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i] ?? null;
    return row as T;
  });
}
