/**
 * Severity alerts: per-level counters, a bounded history and `severity_alert` pushes, fed by a
 * background monitor that tails the configured files independently of any UI stream.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/log.ts";
import { AppError, UsageError } from "../../lib/error.ts";
import { EntryStream } from "./entries.ts";
import { isAdminOnlyLog } from "./access.ts";
import { listLogFiles, openLogFile } from "./files.ts";
import { type Level, LEVELS, type ParsedLine } from "./parse.ts";
import type { LogMonitorSettings } from "./settings.ts";
import { MAX_TAILED } from "./streams.ts";
import { Tailer } from "./tail.ts";
import type { ChangeFeed } from "./watch.ts";
import { isPlainObject } from "../../lib/shared/json_object.ts";

/** Marker of the debug test entries (ignored by the monitor). */
export const DEBUG_TEST_MARKER = "[LogMonitor Debug Test]";
/** Cap of the history `limit`. */
export const MAX_HISTORY_LIMIT = 500;

/** One history entry. */
export interface AlertEntry {
  /** Detection time, ISO 8601. */
  timestamp: string;
  level: Level;
  logger: string;
  message: string;
  source_file: string;
}

/** What the alert center needs from its plugin. */
export interface AlertDeps {
  logDir: string;
  clock: Clock;
  logger: Logger;
  settings(): LogMonitorSettings;
  pollMs(): number;
  push(data: Record<string, unknown>): void;
  /** File-change notifications (null: poll). */
  feed: ChangeFeed | null;
}

/** Counters, history and the background monitor. */
export class AlertCenter {
  #deps: AlertDeps;
  #counts = new Map<Level, number>(LEVELS.map((l) => [l, 0]));
  #history: AlertEntry[] = [];
  #tailers = new Map<string, { tailer: Tailer; entries: EntryStream }>();
  #configured: string[] = [];

  constructor(deps: AlertDeps) {
    this.#deps = deps;
  }

  /**
   * Records an alert for an entry (unless `force`, only when alerts are on and the level
   * triggers). Continuation lines sent after their entry never count again.
   */
  record(line: ParsedLine & { continuation?: true }, sourceFile: string, force = false): void {
    if (line.continuation && !force) return;
    const s = this.#deps.settings();
    if (!force) {
      if (!s.alerts_enabled || !s.severity_triggers.includes(line.level)) return;
      if (line.message.includes(DEBUG_TEST_MARKER)) return;
    }
    const count = (this.#counts.get(line.level) ?? 0) + 1;
    this.#counts.set(line.level, count);
    if (s.alert_history_enabled) {
      this.#history.push({
        timestamp: new Date(this.#deps.clock.now()).toISOString(),
        level: line.level,
        logger: line.logger,
        message: line.message,
        source_file: sourceFile,
      });
      const max = Math.min(s.max_alert_history, MAX_HISTORY_LIMIT);
      if (this.#history.length > max) this.#history = this.#history.slice(-max);
    }
    this.#deps.push({
      type: "severity_alert",
      level: line.level,
      count,
      message: line.message,
      notification_enabled: s.enable_notifications,
      source_file: sourceFile,
    });
  }

  /** Current counters. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.#counts);
  }

  /** Zeroes the counters (history untouched). */
  reset(): void {
    for (const l of LEVELS) this.#counts.set(l, 0);
  }

  /** The newest `limit` entries (newest last) and the history length. */
  history(limitRaw: string | undefined): { history: AlertEntry[]; total: number } {
    let limit = 100;
    if (limitRaw !== undefined) {
      if (!/^[+-]?\d+$/.test(limitRaw.trim())) throw new UsageError("limit must be an integer");
      limit = Math.min(MAX_HISTORY_LIMIT, Math.max(1, Number(limitRaw)));
    }
    return { history: this.#history.slice(-limit), total: this.#history.length };
  }

  /** Counters and history, to carry across a planned restart. */
  snapshot(): { counts: Record<string, number>; history: AlertEntry[] } {
    return { counts: this.counts(), history: structuredClone(this.#history) };
  }

  /** Takes counters and history back from {@linkcode snapshot} (unknown values ignored). */
  restore(snapshot: unknown): void {
    if (!isPlainObject(snapshot)) return;
    const { counts, history } = snapshot;
    if (isPlainObject(counts)) {
      for (const l of LEVELS) {
        const n = counts[l];
        if (typeof n === "number" && Number.isInteger(n) && n >= 0) this.#counts.set(l, n);
      }
    }
    if (Array.isArray(history)) {
      this.#history = history.filter((e) => e && typeof e === "object").slice(-MAX_HISTORY_LIMIT);
    }
  }

  /** Empties the history. */
  clearHistory(): void {
    this.#history = [];
  }

  /** (Re)starts the monitor's tailers from the current settings. */
  async rebuild(): Promise<void> {
    await this.stop();
    const s = this.#deps.settings();
    if (!s.alerts_enabled) return;
    let names: string[];
    if (s.alerts_monitor_mode === "all") {
      names = ((await listLogFiles(this.#deps.logDir)) ?? []).map((f) => f.name);
    } else {
      names = s.alerts_monitored_logs.length > 0 ? s.alerts_monitored_logs : [s.default_log_file];
    }
    // The ADMIN-only logs repeat host.log's ERROR lines with their stacks: no alerts of theirs
    // (their history is readable with STATUS).
    this.#configured = [...new Set(names)].filter((name) => !isAdminOnlyLog({ name }));
    for (const name of this.#configured) {
      if (this.#tailers.size >= MAX_TAILED) {
        this.#deps.logger.info(`Alert monitor skips ${name}: at most ${MAX_TAILED} files`);
        continue;
      }
      try {
        const open = () => openLogFile(this.#deps.logDir, name, { logger: this.#deps.logger });
        const entries = new EntryStream(this.#deps.clock, (list) => {
          for (const e of list) this.record(e, name);
        });
        const tailer = new Tailer({
          initial: await open(),
          open,
          clock: this.#deps.clock,
          pollMs: this.#deps.pollMs(),
          feed: this.#deps.feed,
          onLines: (lines, sizes) => entries.push(lines, sizes),
        });
        await tailer.start();
        this.#tailers.set(name, { tailer, entries });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        this.#deps.logger.info(`Alert monitor skips ${name}: ${err.message}`);
      }
    }
  }

  /** Polls every monitored file once and sends held entries (tests and shutdown). */
  async pollNow(): Promise<void> {
    await Promise.all([...this.#tailers.values()].map((t) => t.tailer.poll()));
    for (const t of this.#tailers.values()) t.entries.close();
  }

  /** Monitor configuration and watched files. */
  status(): Record<string, unknown> {
    const s = this.#deps.settings();
    const active = [...this.#tailers.keys()].sort();
    return {
      enabled: s.alerts_enabled,
      mode: s.alerts_monitor_mode,
      configured_logs: this.#configured,
      active_logs: active,
      active_count: active.length,
    };
  }

  /** Stops the monitor's tailers. */
  async stop(): Promise<void> {
    for (const t of this.#tailers.values()) {
      await t.tailer.stop();
      t.entries.close();
    }
    this.#tailers.clear();
  }
}
