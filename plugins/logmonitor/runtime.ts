/**
 * The log monitor's per-host runtime: settings view, rate limiter, streams and alerts built
 * from a plugin context.
 *
 * @module
 */
import { SlidingWindowLimiter } from "../../lib/http/mod.ts";
import type { PluginContext } from "../../lib/host/mod.ts";
import { AlertCenter } from "./alerts.ts";
import type { LogMonitorSettings } from "./settings.ts";
import { StreamManager } from "./streams.ts";
import type { SearchFileOptions } from "./search.ts";
import { type ChangeFeed, watchFsFeed } from "./watch.ts";

/** Search requests allowed per client per minute. */
export const SEARCH_RATE = { max: 10, windowMs: 60_000 } as const;

/** Options of the plugin factory that tests use. */
export interface LogMonitorOptions {
  /** Poll interval of tailers and flushes in ms. @default stream_poll_interval_s × 1000 */
  pollMs?: number;
  /** Search rate per client. @default SEARCH_RATE */
  searchRate?: { max: number; windowMs: number };
  /** Scan and regex options of searches (block sizes, regex time budget). */
  search?: SearchFileOptions;
  /** File-change notifications of tails; null polls only. @default a `Deno.watchFs` feed */
  feed?: ChangeFeed | null;
}

/** The runtime of one hosted log monitor. */
export interface LogMonitorRuntime {
  ctx: PluginContext;
  settings(): LogMonitorSettings;
  pollMs(): number;
  limiter: SlidingWindowLimiter;
  searchOptions: SearchFileOptions;
  streams: StreamManager;
  alerts: AlertCenter;
  /** The tails' change feed (closed at shutdown). */
  feed: ChangeFeed | null;
}

/** Builds the runtime of a context. */
export function createRuntime(
  ctx: PluginContext<LogMonitorSettings>,
  options: LogMonitorOptions,
): LogMonitorRuntime {
  const settings = () => ctx.settings.get();
  const pollMs = () => options.pollMs ?? settings().stream_poll_interval_s * 1000;
  const feed = options.feed === undefined ? watchFsFeed(ctx.logger) : options.feed;
  return {
    feed,
    ctx,
    settings,
    pollMs,
    limiter: new SlidingWindowLimiter({
      ...(options.searchRate ?? SEARCH_RATE),
      now: () => ctx.clock.now(),
    }),
    searchOptions: options.search ?? {},
    streams: new StreamManager({
      logDir: ctx.logDir,
      clock: ctx.clock,
      logger: ctx.logger,
      pollMs,
      maxLines: () => settings().max_stream_lines,
      mask: () => settings().mask_log_content,
      push: (data, options) => ctx.push(data, options),
      feed,
    }),
    alerts: new AlertCenter({
      logDir: ctx.logDir,
      clock: ctx.clock,
      logger: ctx.logger,
      settings,
      pollMs,
      push: (data) => ctx.push(data),
      feed,
    }),
  };
}
