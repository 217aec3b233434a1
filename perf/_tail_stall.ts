/**
 * The stall section of `perf/slow_consumers.ts`: does a 200 MiB line appended to a tailed log
 * hold up another request? Measured against a peer in the same run, on the same server process:
 * windows of equal length with nothing appended, interleaved with the windows that append and
 * read the line, so that the load of the machine weighs on both alike.
 *
 * Per round (`--rounds`, order alternating peer-first and line-first): the log is emptied and
 * the tail given 500 ms to notice; in the line window 200 × 1 MiB and a `\n` are appended, and
 * the window lasts `--window` ms or until a reading push socket has received the cut line
 * (whichever is later: the whole read is always inside it); the peer window lasts `--window` ms
 * with nothing appended. During both, a probe starts `GET /plugin/logmonitor/files` every `--every` ms
 * without waiting for the previous one (so a stall delays every request that falls into it and is
 * counted as often, and the probe itself does not keep a core busy), after a warm-up second whose
 * requests are not counted (the first requests build the router and compile the handlers). The
 * server also records how late a 5 ms timer of its own fires (the event loop's lag), split into
 * its main thread's CPU time and its wait for a CPU (`/proc/thread-self/schedstat`): a late timer
 * with little CPU time is the machine's load, not the server's work. The probe's process times
 * the same timer, since a probe that is not scheduled reports a slow request too.
 *
 * @module
 */
import { join } from "node:path";
import { print } from "../lib/log.ts";
import { fmtMs, quantileOf } from "./_measure.ts";

/** What the stall rows need of a server child. */
export interface StallChild {
  base: string;
  port: number;
  key: string;
  logDir: string;
  rss(): Promise<number>;
  /** The event loop's lag since the previous call (the first call starts the monitor). */
  lag(): Promise<LoopLag>;
}

/** The worst of the intervals between two ticks of a 5 ms timer, in ms. */
export interface LoopLag {
  /** How late the timer fired. */
  late: number;
  /** The main thread's CPU time within one interval: the longest it kept the timer waiting. */
  busy: number;
  /** The main thread's time waiting for a CPU within one interval (the machine's load). */
  waiting: number;
}

/** The main thread's CPU time and time waiting for a CPU, in ms (Linux schedstat), or NaN. */
function schedstat(): [number, number] {
  try {
    const [run, wait] = Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ");
    return [Number(run) / 1e6, Number(wait) / 1e6];
  } catch {
    return [NaN, NaN];
  }
}

/**
 * Watches the event loop of the calling process with a 5 ms timer: `take()` returns the worst
 * interval since the last call (see {@linkcode LoopLag}) and starts over.
 */
export function lagMonitor() {
  let worst: LoopLag = { late: 0, busy: 0, waiting: 0 };
  let timer: ReturnType<typeof setInterval> | undefined;
  let last = 0;
  let [run, wait] = [0, 0];
  return {
    start() {
      if (timer !== undefined) return;
      last = performance.now();
      [run, wait] = schedstat();
      timer = setInterval(() => {
        const now = performance.now();
        const [r, w] = schedstat();
        worst = {
          late: Math.max(worst.late, now - last - 5),
          busy: Math.max(worst.busy, r - run),
          waiting: Math.max(worst.waiting, w - wait),
        };
        [last, run, wait] = [now, r, w];
      }, 5);
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    take(): LoopLag {
      const out = worst;
      worst = { late: 0, busy: 0, waiting: 0 };
      return out;
    },
  };
}

/** Options of {@linkcode stallRow}. */
export interface StallOptions {
  rounds: number;
  windowMs: number;
  everyMs: number;
  /** Bytes of the line (without its `\n`). */
  lineBytes: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

/** Most probe requests in flight; more means the server stalled for seconds (the run fails). */
const MAX_IN_FLIGHT = 50;

/** Starts a probe request every `everyMs` until `stop()`; returns every latency. */
function pacedProbe(c: StallChild, everyMs: number) {
  const times: number[] = [];
  const pending = new Set<Promise<void>>();
  let running = true;
  let skipped = 0;
  const one = async () => {
    const t0 = performance.now();
    const res = await fetch(`${c.base}/plugin/logmonitor/files`, {
      headers: { "X-Api-Key": c.key },
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET /files answered ${res.status}`);
    times.push(performance.now() - t0);
  };
  const loop = (async () => {
    while (running) {
      if (pending.size < MAX_IN_FLIGHT) {
        const p = one().finally(() => pending.delete(p));
        pending.add(p);
      } else skipped++;
      await sleep(everyMs);
    }
  })();
  return {
    async stop(): Promise<number[]> {
      running = false;
      await loop;
      await Promise.all(pending);
      if (skipped > 0) throw new Error(`the probe had ${MAX_IN_FLIGHT} requests waiting`);
      return times;
    },
  };
}

/** A push socket that reads everything; `seen(text)` resolves when a message contains it. */
function pushReader(c: StallChild) {
  const ws = new WebSocket(`ws://127.0.0.1:${c.port}/push`, {
    headers: { "X-Api-Key": c.key },
  } as unknown as string[]);
  let waiting: { text: string; resolve: () => void } | null = null;
  ws.onmessage = (e) => {
    if (waiting && String(e.data).includes(waiting.text)) waiting.resolve();
  };
  const open = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("push socket failed"));
  });
  return {
    open,
    /** Resolves when a message contains `text`; fails after 60 s. */
    seen: (text: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no push of '${text}' in 60 s`)), 60_000);
        waiting = {
          text,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      }),
    close: () => ws.close(),
  };
}

interface Window {
  times: number[];
  lag: LoopLag;
  /** The probe's own event loop (this process). */
  own: LoopLag;
}

async function appendLine(path: string, bytes: number): Promise<void> {
  const f = await Deno.open(path, { append: true });
  try {
    const block = new Uint8Array(1024 * 1024).fill(0x61);
    for (let left = bytes; left > 0; left -= block.length) {
      await f.write(block.subarray(0, Math.min(left, block.length)));
    }
    await f.write(new TextEncoder().encode("\n"));
  } finally {
    f.close();
  }
}

/** One row: the peer and the line, `rounds` times each, on one fresh server. */
export async function stallRow(c: StallChild, who: string, o: StallOptions): Promise<void> {
  const log = join(c.logDir, "long.log");
  const push = pushReader(c);
  await push.open;
  const own = lagMonitor();
  own.start();
  try {
    const warm = pacedProbe(c, o.everyMs);
    await sleep(1000);
    await warm.stop(); // the warm-up, not counted
    const peer: Window[] = [];
    const line: Window[] = [];
    const readMs: number[] = [];
    let growth = 0;
    for (let r = 0; r < o.rounds; r++) {
      await Deno.truncate(log, 0);
      await sleep(500);
      for (const kind of r % 2 === 0 ? ["peer", "line"] : ["line", "peer"]) {
        await c.lag();
        own.take();
        const probe = pacedProbe(c, o.everyMs);
        const t0 = performance.now();
        if (kind === "peer") {
          await sleep(o.windowMs);
        } else {
          const before = await c.rss();
          let peak = before;
          const sampler = setInterval(() => void c.rss().then((v) => peak = Math.max(peak, v)), 50);
          const cut = push.seen("[cut]");
          await appendLine(log, o.lineBytes);
          await cut;
          readMs.push(performance.now() - t0);
          await sleep(Math.max(0, o.windowMs - (performance.now() - t0)));
          clearInterval(sampler);
          growth = Math.max(growth, peak - before);
        }
        const times = await probe.stop();
        (kind === "peer" ? peer : line).push({ times, lag: await c.lag(), own: own.take() });
      }
    }
    const cell = (ws: Window[]) => {
      const all = ws.flatMap((w) => w.times);
      return `${fmtMs(Math.max(...all))} / ${fmtMs(quantileOf(all, 0.99))} (${all.length})`;
    };
    const maxes = (ws: Window[]) => ws.map((w) => Math.max(...w.times).toFixed(0)).join(", ");
    const lag = (ws: Window[], k: keyof LoopLag, of: "lag" | "own" = "lag") =>
      fmtMs(Math.max(...ws.map((w) => w[of][k])));
    const lags = (k: keyof LoopLag, of: "lag" | "own" = "lag") =>
      `${lag(peer, k, of)} / ${lag(line, k, of)}`;
    print(
      `| ${who} | ${cell(peer)} | **${cell(line)}** | ${maxes(peer)} → ${maxes(line)} | ` +
        `${lags("late")} | ${lags("busy")} | ${lags("waiting")} | ${lags("late", "own")} | ` +
        `${fmtMs(Math.max(...readMs))} | ${mib(growth)} |`,
    );
  } finally {
    own.stop();
    push.close();
  }
}

/** The header of the stall table. */
export function stallHeader(o: StallOptions): string {
  return [
    `\nOne ${mib(o.lineBytes)} line appended to a tailed log, ${o.rounds} rounds of a ` +
    `${o.windowMs} ms window each with nothing appended (peer) and with the line; ` +
    `GET /plugin/logmonitor/files every ${o.everyMs} ms: latency max / p99 (n), slowest per ` +
    `round (ms); the server's 5 ms timer, worst interval: how late it fired, the main thread's ` +
    `CPU time in it (busy) and its wait for a CPU; the same timer in the probe's process; when ` +
    `the cut line was pushed; RSS growth:\n`,
    "| server | nothing appended (peer) | line appended | slowest per round, peer → line | " +
    "server's timer late, peer / line | busy | waiting for a CPU | probe's timer late | " +
    "line pushed after | RSS growth |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ].join("\n");
}
