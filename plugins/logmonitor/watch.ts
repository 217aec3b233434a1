/**
 * File-change notifications for tailers: one `Deno.watchFs` per folder, shared by every tailer
 * of a file in it (reference-counted), so a new line is read as soon as it is written. When
 * watching is not possible (no permission, the system's watch limit) subscribers are told and
 * fall back to polling.
 *
 * @module
 */
import type { Logger } from "../../lib/log.ts";

/** Notifies subscribers of changes in a folder. */
export interface ChangeFeed {
  /**
   * Calls `onChange` whenever something in `dir` changes; returns the unsubscribe function,
   * or null when the folder cannot be watched (the caller polls instead).
   */
  subscribe(dir: string, onChange: () => void): (() => void) | null;
  /** Stops every watcher. */
  close(): void;
}

/** A feed from `Deno.watchFs`. */
export function watchFsFeed(logger?: Logger): ChangeFeed {
  const dirs = new Map<string, { watcher: Deno.FsWatcher; subs: Set<() => void> }>();
  const stop = (dir: string) => {
    const d = dirs.get(dir);
    if (!d) return;
    dirs.delete(dir);
    try {
      d.watcher.close();
    } catch {
      // already closed by its loop ending
    }
  };
  return {
    subscribe(dir, onChange) {
      let d = dirs.get(dir);
      if (!d) {
        let watcher: Deno.FsWatcher;
        try {
          watcher = Deno.watchFs(dir, { recursive: false });
        } catch (err) {
          logger?.info(`Cannot watch ${dir} (${err}); tails poll instead`);
          return null;
        }
        const entry = { watcher, subs: new Set<() => void>() };
        d = entry;
        dirs.set(dir, entry);
        (async () => {
          try {
            for await (const _event of watcher) for (const s of [...entry.subs]) s();
          } catch (err) {
            logger?.info(`Watching ${dir} stopped (${err}); tails poll instead`);
          }
        })();
      }
      const entry = d;
      entry.subs.add(onChange);
      return () => {
        entry.subs.delete(onChange);
        if (entry.subs.size === 0) stop(dir);
      };
    },
    close() {
      for (const dir of [...dirs.keys()]) stop(dir);
    },
  };
}
