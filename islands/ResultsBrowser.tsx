/**
 * Island: the results browser. Table (sort by any column, filter by text and quantization),
 * speed-vs-VRAM scatter and the model × quantization heatmap, all from `GET /api/results`;
 * deleting a model or clearing the cache (with a backup) calls the cache API.
 *
 * @module
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { ChartCanvas } from "../components/ChartCanvas.tsx";
import { fmt, fmtPct, fmtTime } from "../components/format.ts";
import HeatMap from "../components/HeatMap.tsx";
import { api } from "../components/api_client.ts";
import { shortModelName } from "../lib/shared/model_name.ts";

type ResultRow = Record<string, string | number | null>;

const COLUMNS: [string, string, number?][] = [
  ["model_key", "Model"],
  ["quantization", "Quant"],
  ["architecture", "Arch"],
  ["tokens_per_sec_mean", "tok/s", 1],
  ["speed_delta_pct", "Δ"],
  ["ttft_ms_mean", "TTFT ms", 0],
  ["vram_mb", "VRAM MB", 0],
  ["tokens_per_sec_per_gb", "tok/s/GB", 2],
  ["finished_at", "When"],
];

function cell(row: ResultRow, key: string, digits?: number): string {
  const v = row[key];
  if (key === "speed_delta_pct") return fmtPct(v);
  if (key === "finished_at") return fmtTime(v);
  if (digits !== undefined) return fmt(v, digits);
  if (key === "model_key") return shortModelName(String(v)); // the full id is the cell's title
  return v === null || v === undefined ? "–" : String(v);
}

/** The results browser. */
export default function ResultsBrowser(props: { initial: ResultRow[] }) {
  const [rows, setRows] = useState<ResultRow[]>(props.initial);
  const [text, setText] = useState("");
  const [quant, setQuant] = useState("");
  const [sort, setSort] = useState<{ key: string; desc: boolean }>({
    key: "tokens_per_sec_mean",
    desc: true,
  });
  const [message, setMessage] = useState("");
  const reload = async () => setRows((await api<{ results: ResultRow[] }>("/api/results")).results);
  useEffect(() => {
    reload().catch((e) => setMessage(String(e.message ?? e)));
  }, []);

  const quants = [...new Set(rows.map((r) => String(r.quantization ?? "unknown")))].sort();
  const shown = useMemo(() => {
    const needle = text.toLowerCase();
    const kept = rows.filter((r) =>
      (!needle || String(r.model_key).toLowerCase().includes(needle) ||
        String(r.architecture ?? "").toLowerCase().includes(needle)) &&
      (!quant || String(r.quantization ?? "unknown") === quant)
    );
    const dir = sort.desc ? -1 : 1;
    return kept.sort((a, b) => {
      const x = a[sort.key], y = b[sort.key];
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * dir;
    });
  }, [rows, text, quant, sort]);

  const act = async (fn: () => Promise<string>) => {
    try {
      setMessage(await fn());
      await reload();
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  const remove = (key: string) =>
    act(async () => {
      if (!confirm(`Delete every result of ${key}?`)) return "Cancelled";
      await api(`/api/cache/${key.split("/").map(encodeURIComponent).join("/")}`, {
        method: "DELETE",
      });
      return `Deleted ${key}`;
    });
  const clear = () =>
    act(async () => {
      if (!confirm("Clear the whole cache? A backup copy is kept.")) return "Cancelled";
      const r = await api<{ deleted_count: number; backup_file: string }>("/api/cache/clear", {
        method: "POST",
      });
      return `Deleted ${r.deleted_count} results; backup: ${r.backup_file}`;
    });

  const points = shown.filter((r) =>
    typeof r.vram_mb === "number" && typeof r.tokens_per_sec_mean === "number"
  );
  return (
    <div class="results">
      <div class="toolbar">
        <input
          id="filter-text"
          type="search"
          placeholder="Filter by model or architecture"
          value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        <select
          id="filter-quant"
          value={quant}
          onChange={(e) => setQuant((e.target as HTMLSelectElement).value)}
        >
          <option value="">All quantizations</option>
          {quants.map((q) => <option key={q} value={q}>{q}</option>)}
        </select>
        <span id="results-count">{shown.length} of {rows.length}</span>
        <button type="button" class="danger" onClick={clear}>Clear cache</button>
      </div>
      {message && <p class="message" role="status">{message}</p>}
      <div class="scroll card">
        <table class="table" id="results-table">
          <thead>
            <tr>
              {COLUMNS.map(([key, label]) => (
                <th key={key}>
                  <button
                    type="button"
                    class="sort"
                    data-sort={key}
                    onClick={() =>
                      setSort({ key, desc: sort.key === key ? !sort.desc : key !== "model_key" })}
                  >
                    {label}
                    {sort.key === key ? (sort.desc ? " ▼" : " ▲") : ""}
                  </button>
                </th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={String(r.model_key)}>
                {COLUMNS.map(([key, , digits]) => (
                  <td key={key} title={key === "model_key" ? String(r.model_key) : undefined}>
                    {cell(r, key, digits)}
                  </td>
                ))}
                <td>
                  <button type="button" class="link" onClick={() => remove(String(r.model_key))}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section class="grid2">
        <div class="card">
          <h2>Speed vs VRAM</h2>
          <ChartCanvas
            id="chart-scatter"
            label="Tokens per second against VRAM"
            spec={{
              type: "scatter",
              series: [{
                label: "models",
                data: points.map((r) => ({
                  x: r.vram_mb as number,
                  y: r.tokens_per_sec_mean as number,
                  label: shortModelName(String(r.model_key)),
                })),
              }],
              xTitle: "VRAM (MB)",
              yTitle: "tokens/s",
            }}
          />
        </div>
        <div class="card">
          <h2>Model × quantization (avg tok/s)</h2>
          <HeatMap rows={shown as never} />
        </div>
      </section>
    </div>
  );
}
