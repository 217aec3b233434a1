import { useEffect, useRef, useState } from "preact/hooks";
import { api, type ClientLine, highestLevel, searchQuery, totalLabel } from "../client.ts";
import { openPush } from "../../../lib/shared/push_client.ts";

/** A log file entry. */
interface FileEntry {
  name: string;
  size: number;
  modified: number;
}

/** Props of the log viewer. */
export interface LogViewerProps {
  csrfToken: string;
  files: FileEntry[];
  defaultFile: string;
  pageSize: number;
  maxLiveLines: number;
  /** Whether the host allows regular-expression search (setting `regex_search_enabled`). */
  regexEnabled?: boolean;
}

const LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL", "UNKNOWN"];

function Lines({ lines, testId }: { lines: ClientLine[]; testId: string }) {
  return (
    <table class="log-lines" data-testid={testId}>
      <tbody>
        {lines.map((l, i) => (
          <tr key={i} class={`level-${l.level.toLowerCase()}`}>
            <td class="ts">{l.timestamp}</td>
            <td class="lv">{l.level}</td>
            <td class="lg">{l._source_file ? `${l._source_file}: ${l.logger}` : l.logger}</td>
            <td class="msg">{l.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The log viewer: file list, search with paging, export, live tail, alert badge and history. */
export default function LogViewer(props: LogViewerProps) {
  const [file, setFile] = useState(props.defaultFile);
  const [query, setQuery] = useState("");
  const [levels, setLevels] = useState<string[]>([]);
  const [useRegex, setUseRegex] = useState(false);
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [offset, setOffset] = useState(0);
  const [result, setResult] = useState<{ results: ClientLine[]; total: number } | null>(null);
  const [error, setError] = useState("");
  const [live, setLive] = useState(false);
  const [liveLines, setLiveLines] = useState<ClientLine[]>([]);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [history, setHistory] = useState<Record<string, string>[] | null>(null);
  const [connected, setConnected] = useState(false);
  const max = useRef(props.maxLiveLines);

  useEffect(() => {
    api<{ counts: Record<string, number> }>("/alerts", props.csrfToken)
      .then((r) => setCounts(r.counts)).catch(() => {});
    return openPush("logmonitor", (data) => {
      if (data.type === "log_lines") {
        const lines = data.data as ClientLine[];
        setLiveLines((prev) => [...prev, ...lines].slice(-max.current));
      } else if (data.type === "severity_alert") {
        setCounts((prev) => ({ ...prev, [String(data.level)]: Number(data.count) }));
      }
    }, setConnected);
  }, []);

  const run = async (at: number) => {
    setError("");
    try {
      const q = searchQuery({
        file,
        query,
        levels,
        offset: at,
        limit: props.pageSize,
        caseSensitive,
        useRegex: useRegex && !!props.regexEnabled,
      });
      setResult(await api(`/search?${q}`, props.csrfToken));
      setOffset(at);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const exportAs = async (format: "csv" | "txt") => {
    if (!result) return;
    try {
      const blob = await api<Blob>("/export", props.csrfToken, {
        method: "POST",
        body: { results: result.results, format },
      });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `logmonitor_export.${format}`;
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const toggleLive = async () => {
    setError("");
    try {
      if (live) {
        await api("/stream/stop", props.csrfToken, { method: "POST", body: {} });
        setLive(false);
      } else {
        const r = await api<{ initial_lines: ClientLine[] }>("/stream/start", props.csrfToken, {
          method: "POST",
          body: { file },
        });
        setLiveLines(r.initial_lines);
        setLive(true);
      }
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const resetAlerts = async () => {
    await api("/alerts/reset", props.csrfToken, { method: "POST", body: {} }).catch(() => {});
    setCounts({});
  };

  const toggleHistory = async () => {
    if (history) return setHistory(null);
    const r = await api<{ history: Record<string, string>[] }>(
      "/alert-history?limit=100",
      props.csrfToken,
    );
    setHistory(r.history);
  };

  const clearHistory = async () => {
    await api("/alert-history/clear", props.csrfToken, { method: "POST", body: {} });
    setHistory([]);
  };

  const alertTotal = Object.values(counts).reduce((a, b) => a + b, 0);
  const top = highestLevel(counts);
  return (
    <div class="log-viewer">
      <div class="toolbar">
        <label>
          File{" "}
          <select
            value={file}
            onChange={(e) => setFile((e.target as HTMLSelectElement).value)}
            data-testid="file"
          >
            {props.files.map((f) => (
              <option key={f.name} value={f.name}>{f.name} ({f.size} B)</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={toggleLive} data-testid="live" class={live ? "active" : ""}>
          {live ? "Stop live tail" : "Live tail"}
        </button>
        <span class={`push-state ${connected ? "on" : "off"}`}>
          {connected ? "connected" : "offline"}
        </span>
        <button
          type="button"
          class={`alert-badge level-${(top ?? "none").toLowerCase()}`}
          onClick={resetAlerts}
          title="Alerts since the last reset (click to reset)"
          data-testid="alerts"
        >
          Alerts: {alertTotal}
        </button>
        <button type="button" onClick={toggleHistory} data-testid="history-toggle">History</button>
      </div>
      <form
        class="search"
        onSubmit={(e) => {
          e.preventDefault();
          run(0);
        }}
      >
        <input
          type="search"
          placeholder="Search text or pattern"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
          data-testid="query"
        />
        {LEVELS.map((l) => (
          <label key={l} class="level-filter">
            <input
              type="checkbox"
              checked={levels.includes(l)}
              onChange={() =>
                setLevels((p) => p.includes(l) ? p.filter((x) => x !== l) : [...p, l])}
            />
            {l}
          </label>
        ))}
        <label title={props.regexEnabled ? "" : "Disabled by the setting regex_search_enabled"}>
          <input
            type="checkbox"
            checked={useRegex && !!props.regexEnabled}
            disabled={!props.regexEnabled}
            onChange={() => setUseRegex(!useRegex)}
            data-testid="regex"
          />{" "}
          regex
        </label>
        <label>
          <input
            type="checkbox"
            checked={caseSensitive}
            onChange={() => setCaseSensitive(!caseSensitive)}
          />{" "}
          match case
        </label>
        <button type="submit" data-testid="search">Search</button>
      </form>
      {error ? <p class="error" role="alert">{error}</p> : null}
      {history
        ? (
          <section class="history" data-testid="history">
            <h2>
              Alert history ({history.length}){" "}
              <button type="button" onClick={clearHistory}>Clear</button>
            </h2>
            <ul>
              {history.map((h, i) => (
                <li key={i}>{h.timestamp} {h.level} {h.source_file}: {h.message}</li>
              ))}
            </ul>
          </section>
        )
        : null}
      {result
        ? (
          <section class="results">
            <p data-testid="total">
              {result.results.length === 0
                ? "No matches"
                : `Matches ${offset + 1}-${offset + result.results.length} of ${
                  totalLabel(result.total, offset, props.pageSize)
                }`}
              <button
                type="button"
                disabled={offset === 0}
                onClick={() => run(Math.max(0, offset - props.pageSize))}
              >
                Previous
              </button>
              <button
                type="button"
                disabled={result.total <= offset + props.pageSize}
                onClick={() => run(offset + props.pageSize)}
                data-testid="next"
              >
                Next
              </button>
              <button type="button" onClick={() => exportAs("csv")}>Export CSV</button>
              <button type="button" onClick={() => exportAs("txt")}>Export TXT</button>
            </p>
            <Lines lines={result.results} testId="results" />
          </section>
        )
        : null}
      {live || liveLines.length > 0
        ? (
          <section class="live">
            <h2>Live: {file}</h2>
            <Lines lines={liveLines} testId="live-lines" />
          </section>
        )
        : null}
    </div>
  );
}
