/**
 * The results browser's state as signals: the rows (from `GET /api/results`, sent in columns), the text,
 * quantization and machine filters and the sort, the rows shown, and the cache actions (delete a model,
 * clear everything with a backup). Browser code.
 *
 * @module
 */
import { computed, type ReadonlySignal, type Signal, signal } from "@preact/signals";
import { api } from "./api_client.ts";
import { type ColumnTable, rowsOf } from "../lib/shared/columns.ts";
import { UNKNOWN_MACHINE, UNKNOWN_MACHINE_KEY } from "../lib/shared/machine.ts";

/** One row of `/api/results`. */
export type ResultRow = Record<string, string | number | null>;

/** The sort: a column and its direction. */
export interface Sort {
  key: string;
  desc: boolean;
}

/** The browser's state and actions. */
export interface ResultsState {
  rows: Signal<ResultRow[]>;
  text: Signal<string>;
  quant: Signal<string>;
  /** The machine filter: a machine id, `unknown` for results without one, or "" for all. */
  machine: Signal<string>;
  sort: Signal<Sort>;
  message: Signal<string>;
  /** The quantizations present, sorted. */
  quants: ReadonlySignal<string[]>;
  /** The machines present (id and name), by name; `unknown` for results without one. */
  machines: ReadonlySignal<MachineOption[]>;
  /** The rows passing the filters, in the sort's order. */
  shown: ReadonlySignal<ResultRow[]>;
  /** Sorts by `key` (again: the other direction; a new numeric column: descending). */
  sortBy(key: string): void;
  /** Empties the text, quantization and machine filters. */
  clearFilters(): void;
  reload(): Promise<void>;
  remove(key: string): Promise<void>;
  clear(): Promise<void>;
}

const quantOf = (r: ResultRow) => String(r.quantization ?? "unknown");

/** A machine of the filter. */
export interface MachineOption {
  /** The machine's id, or `unknown` for the results stored without one. */
  id: string;
  name: string;
}

export { UNKNOWN_MACHINE };

/** The filter key of a row's machine. */
export const machineKeyOf = (r: ResultRow): string =>
  typeof r.machine_id === "string" ? r.machine_id : UNKNOWN_MACHINE_KEY;

/** The machines of the rows, by name (the unknown machine last). */
export function machinesOf(rows: ResultRow[]): MachineOption[] {
  const seen = new Map<string, string>();
  for (const r of rows) {
    const id = machineKeyOf(r);
    if (!seen.has(id)) {
      seen.set(id, id === UNKNOWN_MACHINE_KEY ? UNKNOWN_MACHINE : String(r.machine_name));
    }
  }
  return [...seen].map(([id, name]) => ({ id, name })).sort((a, b) =>
    a.id === UNKNOWN_MACHINE_KEY
      ? 1
      : b.id === UNKNOWN_MACHINE_KEY
      ? -1
      : a.name.localeCompare(b.name)
  );
}

/** Orders rows by one column; missing values last. */
export function compareRows(sort: Sort): (a: ResultRow, b: ResultRow) => number {
  const dir = sort.desc ? -1 : 1;
  return (a, b) => {
    const x = a[sort.key], y = b[sort.key];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (x < y ? -1 : 1) * dir;
  };
}

/** Creates the state from the rows the page rendered. */
export function createResultsState(initial: ResultRow[]): ResultsState {
  const act = async (fn: () => Promise<string>) => {
    try {
      s.message.value = await fn();
      await s.reload();
    } catch (e) {
      s.message.value = (e as Error).message;
    }
  };
  const s: ResultsState = {
    rows: signal(initial),
    text: signal(""),
    quant: signal(""),
    machine: signal(""),
    sort: signal({ key: "tokens_per_sec_mean", desc: true }),
    message: signal(""),
    quants: computed(() => [...new Set(s.rows.value.map(quantOf))].sort()),
    machines: computed(() => machinesOf(s.rows.value)),
    shown: computed(() => {
      const needle = s.text.value.toLowerCase();
      const quant = s.quant.value;
      const machine = s.machine.value;
      return s.rows.value.filter((r) =>
        (!needle || String(r.model_key).toLowerCase().includes(needle) ||
          String(r.architecture ?? "").toLowerCase().includes(needle)) &&
        (!quant || quantOf(r) === quant) && (!machine || machineKeyOf(r) === machine)
      ).sort(compareRows(s.sort.value));
    }),
    sortBy(key) {
      const sort = s.sort.value;
      s.sort.value = { key, desc: sort.key === key ? !sort.desc : key !== "model_key" };
    },
    clearFilters() {
      s.text.value = "";
      s.quant.value = "";
      s.machine.value = "";
    },
    async reload() {
      s.rows.value = rowsOf<ResultRow>(await api<ColumnTable>("/api/results"));
    },
    remove: (key) =>
      act(async () => {
        if (!confirm(`Delete every result of ${key}?`)) return "Cancelled";
        await api(`/api/cache/${key.split("/").map(encodeURIComponent).join("/")}`, {
          method: "DELETE",
        });
        return `Deleted ${key}`;
      }),
    clear: () =>
      act(async () => {
        if (!confirm("Clear the whole cache? A backup copy is kept.")) return "Cancelled";
        const r = await api<{ deleted_count: number; backup_file: string }>("/api/cache/clear", {
          method: "POST",
        });
        return `Deleted ${r.deleted_count} results; backup: ${r.backup_file}`;
      }),
  };
  return s;
}
