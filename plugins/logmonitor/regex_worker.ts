/**
 * Regular expressions from clients run in a worker with a deadline, never on the host's event
 * loop: a backtracking pattern that runs away is terminated when its search's time budget is
 * spent, and other requests are served meanwhile. Lines are cut to {@linkcode MAX_REGEX_LINE}
 * characters before they are tested. The worker runs from a blob URL (self-contained code), so
 * it needs no read permission on the source tree; at most {@linkcode MAX_REGEX_SEARCHES} run at
 * once.
 *
 * @module
 */
import { UnavailableError, UnprocessableError, UsageError } from "../../lib/error.ts";

/** Characters of a line a regular expression sees. */
export const MAX_REGEX_LINE = 8 * 1024;
/** Regex searches running at once (each holds a worker). */
export const MAX_REGEX_SEARCHES = 2;
/** Default time budget of one regex search. */
export const REGEX_BUDGET_MS = 20_000;

/** The worker's code (runs alone: only globals, no imports). */
function regexWorkerMain(): void {
  const scope = globalThis as unknown as {
    onmessage: ((e: MessageEvent) => void) | null;
    postMessage(value: unknown): void;
  };
  let re: RegExp | null = null;
  let all: RegExp | null = null;
  scope.onmessage = (e) => {
    const m = e.data;
    if (m.type === "init") {
      re = new RegExp(m.pattern, m.flags);
      // Without lookaround a match inside one line is also a match of the whole text, so the
      // text is scanned at once and only the lines where a match starts are tested alone.
      all = /\(\?<?[=!]/.test(m.pattern) ? null : new RegExp(m.pattern, m.flags + "gm");
      return;
    }
    const text: string = m.text;
    const cap: number = m.cap;
    const lines: number[] = [];
    const test = (start: number, end: number) => {
      let line = text.slice(start, Math.min(end, start + cap));
      if (line.endsWith("\r")) line = line.slice(0, -1);
      return re!.test(line);
    };
    const lineEnd = (start: number) => {
      const end = text.indexOf("\n", start);
      return end < 0 ? text.length : end;
    };
    if (all) {
      let index = 0;
      let start = 0; // start of line `index`
      all.lastIndex = 0;
      for (let hit = all.exec(text); hit; hit = all.exec(text)) {
        for (
          let nl = text.indexOf("\n", start);
          nl >= 0 && nl < hit.index;
          nl = text.indexOf("\n", start)
        ) {
          start = nl + 1;
          index++;
        }
        const end = lineEnd(start);
        if (test(start, end)) lines.push(index);
        if (end >= text.length) break;
        start = end + 1;
        index++;
        all.lastIndex = start;
      }
    } else {
      let start = 0;
      for (let index = 0;; index++) {
        const end = lineEnd(start);
        if (test(start, end)) lines.push(index);
        if (end >= text.length) break;
        start = end + 1;
      }
    }
    scope.postMessage({ id: m.id, lines });
  };
}

let workerUrl: string | null = null;
let running = 0;

/** Whether another regex search may start now. */
export function regexSlotFree(): boolean {
  return running < MAX_REGEX_SEARCHES;
}

/**
 * One regex search's worker. Create it with {@linkcode RegexRunner.open}, call
 * {@linkcode RegexRunner.matchLines} per block and {@linkcode RegexRunner.close} at the end.
 */
export class RegexRunner {
  #worker: Worker;
  #deadline: number;
  #budgetMs: number;
  #seq = 0;
  #closed = false;

  private constructor(pattern: string, flags: string, budgetMs: number) {
    workerUrl ??= URL.createObjectURL(
      new Blob([`(${regexWorkerMain.toString()})();`], { type: "text/javascript" }),
    );
    this.#worker = new Worker(workerUrl, { type: "module" });
    this.#worker.postMessage({ type: "init", pattern, flags });
    this.#budgetMs = budgetMs;
    this.#deadline = performance.now() + budgetMs;
    running++;
  }

  /**
   * Starts a worker for `pattern`.
   *
   * @throws {UnavailableError} `regex_busy` when {@linkcode MAX_REGEX_SEARCHES} already run.
   */
  static open(pattern: string, flags: string, budgetMs = REGEX_BUDGET_MS): RegexRunner {
    if (!regexSlotFree()) {
      throw new UnavailableError(
        "Too many regular-expression searches are running; retry shortly",
        { code: "regex_busy", retryAfterSeconds: 1 },
      );
    }
    return new RegexRunner(pattern, flags, budgetMs);
  }

  /**
   * Indices of the lines of `text` (joined with `\n`) that match.
   *
   * @throws {UnprocessableError} `regex_timeout` when the search's budget is spent (the worker is
   * terminated).
   */
  matchLines(text: string): Promise<number[]> {
    const id = ++this.#seq;
    return new Promise((resolve, reject) => {
      const left = this.#deadline - performance.now();
      const timer = setTimeout(() => {
        this.close();
        reject(
          new UnprocessableError(
            `Search pattern is too slow: gave up after ${
              this.#budgetMs / 1000
            } s. Simplify the regular expression.`,
            { code: "regex_timeout" },
          ),
        );
      }, Math.max(0, left));
      this.#worker.onmessage = (e) => {
        if (e.data.id !== id) return;
        clearTimeout(timer);
        resolve(e.data.lines);
      };
      this.#worker.onerror = (e) => {
        e.preventDefault();
        clearTimeout(timer);
        this.close();
        reject(new UsageError(`Invalid search pattern: ${e.message}`));
      };
      this.#worker.postMessage({ id, text, cap: MAX_REGEX_LINE });
    });
  }

  /** Terminates the worker (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker.terminate();
    running--;
  }
}
