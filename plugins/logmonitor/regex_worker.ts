/**
 * Regular expressions from clients run on RE2 (npm `re2-wasm`), a linear-time engine: no pattern
 * can backtrack, so a search's time grows with the file, never with the pattern's nesting. Lines
 * are matched in the search's own worker (`re2_worker.ts`, from a blob URL), never on the host's
 * event loop. A search without a prefilter automaton starts it at once and it compiles the
 * pattern (the refusals and their reasons are RE2's); a search with one (`regex_dfa.ts`, which
 * decides most lines alone) has RE2 compile the pattern on the host, in a fresh instance dropped
 * at once, and starts the worker only when lines first need RE2 (often never). The worker is terminated when the search ends, so RE2's fixed 16 MiB of
 * WebAssembly memory is given back, and a pattern whose program would not fit in it fails alone. A time budget still bounds a search
 * whose automaton is too large for RE2's fast path (its slower NFA takes over), and at most
 * {@linkcode MAX_REGEX_SEARCHES} run at once. Lines are cut to {@linkcode MAX_REGEX_LINE} bytes
 * before they are tested. Patterns RE2 refuses (backreferences, lookaround) are answered 422
 * `regex_unsupported` with the reason.
 *
 * @module
 */
import { UnavailableError, UnprocessableError } from "../../lib/error.ts";
import { matchingLines, MAX_WINDOW } from "./re2_lines.ts";
import { type Re2Assets, re2Assets, re2WorkerMain, startRe2 } from "./re2_worker.ts";

/** Bytes of a line a regular expression sees. */
export const MAX_REGEX_LINE = 8 * 1024;
/** Regex searches running at once (each holds a worker). */
export const MAX_REGEX_SEARCHES = 2;
/** Default time budget of one regex search. */
export const REGEX_BUDGET_MS = 60_000;

/** Longest wait for a worker to load RE2 and compile the pattern. */
const START_MS = 30_000;

let running = 0;
let workerUrl: string | null = null;

/** A worker's answer (see `re2_worker.ts`). */
interface Reply {
  type?: "ready" | "refused" | "unavailable";
  message?: string;
  lines?: number[];
  failed?: string;
}

/** `regex_unavailable`: re2-wasm could not be loaded. */
function unavailable(err: unknown): UnavailableError {
  return new UnavailableError(
    `The regex engine (re2-wasm) could not be loaded: ${err instanceof Error ? err.message : err}`,
    { code: "regex_unavailable" },
  );
}

/** `regex_unsupported`: RE2's refusal of a pattern, with the reason in the user's terms. */
function refused(re2Message: string): UnprocessableError {
  const message = re2Message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
  return new UnprocessableError(
    `Search pattern is not supported: ${refusalReason(message)} (RE2: ${message}). ` +
      "Regular expressions run on RE2, which guarantees linear time.",
    { code: "regex_unsupported" },
  );
}

/**
 * Compiles `pattern` with RE2 on the host, in a fresh instance dropped at once (compiling is
 * bounded: a query has at most 1000 characters, and RE2 limits its program).
 *
 * @throws {UnprocessableError} `regex_unsupported` when RE2 refuses it, `regex_too_large` when
 * its program does not fit in RE2's memory.
 */
function checkPattern(assets: Re2Assets, pattern: string, ignoreCase: boolean): void {
  let RE2;
  try {
    RE2 = startRe2(assets);
  } catch (err) {
    throw unavailable(err);
  }
  try {
    const re = new RE2(pattern, `u${ignoreCase ? "i" : ""}m`) as { wrapper?: { delete?(): void } };
    re.wrapper?.delete?.();
  } catch (err) {
    if (err instanceof SyntaxError) throw refused(err.message);
    throw new UnprocessableError(
      `Search pattern needs more memory than the regex engine has: ${
        err instanceof Error ? err.message : err
      }. Simplify the regular expression.`,
      { code: "regex_too_large" },
    );
  }
}

/** Whether another regex search may start now. */
export function regexSlotFree(): boolean {
  return running < MAX_REGEX_SEARCHES;
}

/** Why RE2 refused a pattern, in the user's terms (RE2's own message follows it). */
export function refusalReason(re2Message: string): string {
  if (/invalid escape sequence: \\([1-9]|k)/.test(re2Message)) {
    return "backreferences (\\1, \\k<name>) cannot be matched in linear time";
  }
  if (/invalid perl operator: \(\?[<=!]/.test(re2Message)) {
    return "lookahead and lookbehind ((?=, (?!, (?<=, (?<!) cannot be matched in linear time";
  }
  if (/invalid repetition size/.test(re2Message)) return "a repeat count is above 1000";
  if (/pattern too large/.test(re2Message)) return "the pattern compiles to too large a program";
  return "RE2 does not accept this syntax";
}

/**
 * One regex search's worker. Create it with {@linkcode RegexRunner.open}, call
 * {@linkcode RegexRunner.matchLines} per block and {@linkcode RegexRunner.close} at the end.
 */
export class RegexRunner {
  #worker: Worker | null = null;
  #starting: Promise<void> | null = null;
  #assets: Re2Assets;
  #pattern: string;
  #ignoreCase: boolean;
  /** When the budget ends (moved on by the worker's start). */
  #budgetEnd: number;
  #deadline: number;
  #budgetMs: number;
  #seq = 0;
  #closed = false;
  /** The memory blocks go to the worker in, shared with it: no copy, no garbage per block. */
  #shared: SharedArrayBuffer | null = null;

  private constructor(assets: Re2Assets, pattern: string, ignoreCase: boolean, budgetMs: number) {
    this.#assets = assets;
    this.#pattern = pattern;
    this.#ignoreCase = ignoreCase;
    this.#budgetMs = budgetMs;
    this.#budgetEnd = this.#deadline = performance.now() + budgetMs;
  }

  /**
   * Opens a search for `pattern` (JavaScript syntax, translated to RE2's). With `lazy`, RE2
   * checks the pattern on the host and the worker starts when lines first need RE2 (for a
   * search whose prefilter decides most lines); else the worker starts now and checks it.
   *
   * @throws {UnavailableError} `regex_busy` when {@linkcode MAX_REGEX_SEARCHES} already run.
   * @throws {UnprocessableError} `regex_unsupported` when RE2 refuses the pattern.
   */
  static async open(
    pattern: string,
    ignoreCase: boolean,
    budgetMs = REGEX_BUDGET_MS,
    lazy = false,
  ): Promise<RegexRunner> {
    if (!regexSlotFree()) {
      throw new UnavailableError(
        "Too many regular-expression searches are running; retry shortly",
        { code: "regex_busy", retryAfterSeconds: 1 },
      );
    }
    let assets;
    try {
      assets = re2Assets();
    } catch (err) {
      throw unavailable(err);
    }
    if (lazy) checkPattern(assets, pattern, ignoreCase);
    running++;
    const runner = new RegexRunner(assets, pattern, ignoreCase, budgetMs);
    if (!lazy) await (runner.#starting = runner.#start());
    return runner;
  }

  /** Starts the worker and compiles the pattern there (its time is not the budget's). */
  async #start(): Promise<void> {
    workerUrl ??= URL.createObjectURL(
      new Blob([
        `${matchingLines.toString()}\n${startRe2.toString()}\n` +
        `(${re2WorkerMain.toString()})(matchingLines, startRe2);`,
      ], { type: "text/javascript" }),
    );
    this.#worker = new Worker(workerUrl, { type: "module" });
    const started = performance.now();
    this.#deadline = started + START_MS;
    const reply = await this.#ask({
      type: "init",
      assets: this.#assets,
      pattern: this.#pattern,
      ignoreCase: this.#ignoreCase,
      lineCap: MAX_REGEX_LINE,
      maxWindow: MAX_WINDOW,
    });
    if (reply.type !== "ready") {
      this.close();
      throw reply.type === "refused" ? refused(String(reply.message)) : unavailable(reply.message);
    }
    this.#deadline = this.#budgetEnd + (performance.now() - started);
    this.#budgetEnd = this.#deadline;
  }

  /** Whether the worker runs (it starts when the first lines need RE2). */
  get started(): boolean {
    return this.#worker !== null;
  }

  /** Sends `message` and waits for the worker's answer within the search's budget. */
  #ask(message: Record<string, unknown>): Promise<Reply> {
    return new Promise((resolve, reject) => {
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
      }, Math.max(0, this.#deadline - performance.now()));
      const worker = this.#worker!;
      worker.onmessage = (e) => {
        if (message.id !== undefined && e.data.id !== message.id) return;
        clearTimeout(timer);
        resolve(e.data);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        clearTimeout(timer);
        this.close();
        reject(new Error(`Regex worker failed: ${e.message}`));
      };
      worker.postMessage(message);
    });
  }

  /**
   * Indices of the lines of `bytes` (UTF-8, lines ending with LF) that match. The bytes are
   * copied into memory shared with the worker (one buffer per search, however many blocks: a
   * transferred buffer is garbage the host's collector sees too late, about 30 MB a search).
   *
   * @throws {UnprocessableError} `regex_timeout` when the search's budget is spent (the worker is
   * terminated), `regex_too_large` when RE2 runs out of its memory.
   */
  async matchLines(bytes: Uint8Array): Promise<number[]> {
    if (this.#worker === null) await (this.#starting ??= this.#start());
    const id = ++this.#seq;
    if (this.#shared === null || this.#shared.byteLength < bytes.length) {
      this.#shared = new SharedArrayBuffer(bytes.length);
    }
    new Uint8Array(this.#shared, 0, bytes.length).set(bytes);
    const reply = await this.#ask({ id, shared: this.#shared, length: bytes.length });
    if (reply.failed !== undefined) {
      this.close();
      throw new UnprocessableError(
        `Search pattern needs more memory than the regex engine has: ${reply.failed}. ` +
          "Simplify the regular expression.",
        { code: "regex_too_large" },
      );
    }
    return reply.lines ?? [];
  }

  /**
   * Terminates the worker (idempotent). A terminated worker's memory (its heap, RE2's 16 MiB)
   * goes back only when the host's collector runs; where the host exposes `gc()` (the scoped
   * host does), it is run shortly after, so the host returns to its size before the search.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker?.terminate();
    running--;
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc) Deno.unrefTimer(setTimeout(() => gc(), 200));
  }
}
