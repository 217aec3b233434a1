/**
 * The log viewer's state as signals and what the viewer does with it: search with paging,
 * export, the live tail, the alert counters and their history. The components read and set the
 * signals; live lines and alert counts come from the page's push socket. Browser code.
 *
 * @module
 */
import { computed, type ReadonlySignal, type Signal, signal } from "@preact/signals";
import { followPush } from "../../../lib/shared/push.ts";
import {
  api,
  appendLiveLines,
  type ClientLine,
  exportFileName,
  highestLevel,
  searchQuery,
} from "../browser_api.ts";
import { PLUGIN_ID } from "../id.ts";

/** A log file entry. */
export interface FileEntry {
  name: string;
  size: number;
  modified: number;
}

/** What the page hands the viewer. */
export interface ViewerConfig {
  csrfToken: string;
  files: FileEntry[];
  defaultFile: string;
  pageSize: number;
  maxLiveLines: number;
  /** Whether the host allows regular-expression search (setting `regex_search_enabled`). */
  regexEnabled?: boolean;
}

/** A page of search results. */
export interface SearchPage {
  results: ClientLine[];
  total: number;
}

/** The levels a search can filter on. */
export const LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL", "UNKNOWN"];

/** The viewer's state and actions. */
export interface ViewerState {
  config: ViewerConfig;
  file: Signal<string>;
  query: Signal<string>;
  levels: Signal<string[]>;
  useRegex: Signal<boolean>;
  caseSensitive: Signal<boolean>;
  offset: Signal<number>;
  result: Signal<SearchPage | null>;
  error: Signal<string>;
  live: Signal<boolean>;
  liveLines: Signal<ClientLine[]>;
  counts: Signal<Record<string, number>>;
  history: Signal<Record<string, string>[] | null>;
  alertTotal: ReadonlySignal<number>;
  topLevel: ReadonlySignal<string | null>;
  search(at: number): Promise<void>;
  exportAs(format: "csv" | "txt"): Promise<void>;
  toggleLive(): Promise<void>;
  resetAlerts(): Promise<void>;
  toggleHistory(): Promise<void>;
  clearHistory(): Promise<void>;
  /** Loads the alert counts and follows the live lines and alerts; returns the unfollow. */
  follow(): () => void;
}

/** Creates the state of one viewer. */
export function createViewerState(config: ViewerConfig): ViewerState {
  const call = <T>(path: string, init?: { method?: string; body?: unknown }) =>
    api<T>(path, config.csrfToken, init);
  const s: ViewerState = {
    config,
    file: signal(config.defaultFile),
    query: signal(""),
    levels: signal([]),
    useRegex: signal(false),
    caseSensitive: signal(false),
    offset: signal(0),
    result: signal(null),
    error: signal(""),
    live: signal(false),
    liveLines: signal([]),
    counts: signal({}),
    history: signal(null),
    alertTotal: computed(() => Object.values(s.counts.value).reduce((a, b) => a + b, 0)),
    topLevel: computed(() => highestLevel(s.counts.value)),
    async search(at) {
      s.error.value = "";
      try {
        const q = searchQuery({
          file: s.file.value,
          query: s.query.value,
          levels: s.levels.value,
          offset: at,
          limit: config.pageSize,
          caseSensitive: s.caseSensitive.value,
          useRegex: s.useRegex.value && !!config.regexEnabled,
        });
        s.result.value = await call<SearchPage>(`/search?${q}`);
        s.offset.value = at;
      } catch (err) {
        s.error.value = (err as Error).message;
      }
    },
    async exportAs(format) {
      const result = s.result.value;
      if (!result) return;
      try {
        const blob = await call<Blob>("/export", {
          method: "POST",
          body: { results: result.results, format },
        });
        const a = document.createElement("a");
        a.href = URL.createObjectURL(blob);
        a.download = exportFileName(format);
        a.click();
        URL.revokeObjectURL(a.href);
      } catch (err) {
        s.error.value = (err as Error).message;
      }
    },
    async toggleLive() {
      s.error.value = "";
      try {
        if (s.live.value) {
          await call("/stream/stop", { method: "POST", body: {} });
          s.live.value = false;
        } else {
          const r = await call<{ initial_lines: ClientLine[] }>("/stream/start", {
            method: "POST",
            body: { file: s.file.value },
          });
          s.liveLines.value = r.initial_lines;
          s.live.value = true;
        }
      } catch (err) {
        s.error.value = (err as Error).message;
      }
    },
    async resetAlerts() {
      await call("/alerts/reset", { method: "POST", body: {} }).catch(() => {});
      s.counts.value = {};
    },
    async toggleHistory() {
      if (s.history.value) {
        s.history.value = null;
        return;
      }
      const r = await call<{ history: Record<string, string>[] }>("/alert-history?limit=100");
      s.history.value = r.history;
    },
    async clearHistory() {
      await call("/alert-history/clear", { method: "POST", body: {} });
      s.history.value = [];
    },
    follow() {
      call<{ counts: Record<string, number> }>("/alerts")
        .then((r) => s.counts.value = r.counts).catch(() => {});
      return followPush(PLUGIN_ID, (data) => {
        if (data.type === "log_lines") {
          const lines = data.data as ClientLine[];
          s.liveLines.value = appendLiveLines(s.liveLines.value, lines, config.maxLiveLines);
        } else if (data.type === "severity_alert") {
          s.counts.value = { ...s.counts.value, [String(data.level)]: Number(data.count) };
        }
      });
    },
  };
  return s;
}
