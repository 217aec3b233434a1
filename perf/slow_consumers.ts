/**
 * Slow consumers and long lines: how much memory do 20 clients that never read cost the plugin
 * host and the dashboard during a busy live tail, and does a 200 MiB line appended to a tailed
 * log hold up other requests? (The review of issue 28 saw the host grow from 214 to 1,912 MiB,
 * the dashboard from 153 to 1,157 MiB, and 2.6 s / 7.1 s stalls.)
 *
 * Method
 * - Servers: the plugin host alone (`createHost` with every plugin, served as `deno task host`
 *   serves it) and the dashboard (`createWebApp`: the dashboard with the host, as
 *   `deno task webapp`), each in its own child process (this file with `--serve`), fresh for
 *   every row.
 * - Busy tail: the log monitor's live tail follows `busy.log` while this process appends
 *   `--lines` lines of ~200 bytes every 50 ms for `--seconds` seconds; the tail pushes
 *   `log_lines` to every push socket. For the dashboard's event streams (SSE) the child publishes
 *   the same number of `log` events into the benchmark's event hub.
 * - Clients: 20 push sockets (or event streams) that never read — raw loopback TCP clients that
 *   send the WebSocket upgrade (or the GET) and nothing more — and, as the peer in the same run,
 *   20 clients that read everything.
 * - Memory: the child's resident set (VmRSS, /proc) sampled every 100 ms; printed are the peak
 *   during the load minus the value at rest before it (after a full garbage collection), and
 *   what is still held after the load, after a full garbage collection, with every client still
 *   connected. The stalled sockets are then drained to see whether the server told them they
 *   lagged (close code 4408; `{"type": "lagged"}` for an event stream still draining).
 * - Stall: while the tail follows `long.log`, one 200 MiB line is appended and read, in
 *   `--rounds` rounds, each against a peer window of the same length with nothing appended, on
 *   the same server in the same run; a probe starts `GET /plugin/logmonitor/files` every
 *   `--every` ms (see `./_tail_stall.ts` for the whole method). Printed: the probe's slowest and
 *   99th-percentile latency (and sample count) for the peer and for the line, the slowest per
 *   round, the server's event-loop lag, when the cut line was pushed, and the RSS growth.
 *
 * Run: `deno run -A perf/slow_consumers.ts [--seconds 15] [--lines 500] [--events 500]
 *   [--clients 20] [--rounds 6] [--window 3000] [--every 20] [--only push|sse|stall]`
 *   (`--events`: event-stream events per 50 ms; `--rounds`, `--window` (ms) and `--every` (ms):
 *   the stall section)
 *
 * @module
 */
import { join } from "node:path";
import { parseOptions } from "../lib/args.ts";
import { print } from "../lib/log.ts";
import { createHost } from "../lib/host/mod.ts";
import { listenHostNames } from "../lib/http/mod.ts";
import { createHostApp, createWebApp } from "../app/mod.ts";
import { plugins } from "../plugins/registry.ts";
import { ensureIslandsBuilt } from "../tests/_helpers.ts";
import { serverFrames, stalledClient, upgradeHead } from "../tests/_stalled_client.ts";
import { startServeChild } from "./_measure.ts";
import {
  lagMonitor,
  type LoopLag,
  stallHeader,
  type StallOptions,
  stallRow,
} from "./_tail_stall.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    seconds: { type: "string", default: "15" },
    lines: { type: "string", default: "500" },
    events: { type: "string", default: "500" },
    only: { type: "string" },
    clients: { type: "string", default: "20" },
    rounds: { type: "string", default: "6" },
    window: { type: "string", default: "3000" },
    every: { type: "string", default: "20" },
    serve: { type: "string" },
    root: { type: "string" },
  },
});

/** Child: serves `host` or `webapp` from `root`; prints its port, admin key and log folder. */
async function serve(kind: string, root: string): Promise<void> {
  const vars: Record<string, string> = {
    HOME: root,
    LOCALBENCH_DATA_DIR: join(root, "data"),
    LOCALBENCH_CONFIG_DIR: join(root, "config"),
  };
  let fetch: (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;
  let host;
  let publish = (_n: number) => {};
  if (kind === "host") {
    host = createHost({ plugins, dataDir: vars.LOCALBENCH_DATA_DIR! });
    const app = createHostApp(host, listenHostNames("127.0.0.1"), false);
    fetch = (req, info) => app.fetch(req, info);
  } else {
    const web = await createWebApp({ env: (n) => vars[n] });
    host = web.host!;
    fetch = web.fetch;
    const message = "x".repeat(160);
    publish = (n) => {
      for (let i = 0; i < n; i++) {
        web.controller.events.publish({ type: "log", level: "info", message } as never);
      }
    };
  }
  const { adminKey } = await host.start();
  const lag = lagMonitor();
  let publisher: ReturnType<typeof setInterval> | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req, info) => {
    const url = new URL(req.url);
    if (url.pathname === "/__gc") {
      (globalThis as { gc?: () => void }).gc?.();
      return new Response(String(Deno.memoryUsage().rss));
    }
    if (url.pathname === "/__lag") {
      lag.start();
      return Response.json(lag.take());
    }
    if (url.pathname === "/__publish") {
      clearInterval(publisher);
      const n = Number(url.searchParams.get("n"));
      if (n > 0) publisher = setInterval(() => publish(n), 50);
      return new Response("ok");
    }
    return fetch(req, info);
  });
  print(`ready ${server.addr.port} ${adminKey} ${host.paths.logDir}`);
  await new Promise(() => {});
}

interface Child {
  base: string;
  port: number;
  key: string;
  logDir: string;
  rss(): Promise<number>;
  /** RSS after a full garbage collection. */
  collected(): Promise<number>;
  /** The event loop's lag since the previous call. */
  lag(): Promise<LoopLag>;
  stop(): Promise<void>;
}

async function spawn(kind: string, parent: string): Promise<Child> {
  const root = await Deno.makeTempDir({ dir: parent }); // a fresh data folder: a new admin key
  const server = await startServeChild(
    import.meta.url,
    [kind, "--root", root],
    /ready (\d+) (\S+) (\S+)\n/,
    "null",
  );
  const [, port, key, logDir] = server.ready;
  return {
    base: `http://127.0.0.1:${port}`,
    port: Number(port),
    key: key!,
    logDir: logDir!,
    async rss() {
      const status = await Deno.readTextFile(`/proc/${server.child.pid}/status`);
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
    },
    async collected() {
      return Number(await (await fetch(`http://127.0.0.1:${port}/__gc`)).text());
    },
    async lag() {
      return await (await fetch(`http://127.0.0.1:${port}/__lag`)).json();
    },
    stop: server.stop,
  };
}

async function startTail(c: Child, file: string): Promise<void> {
  await Deno.writeTextFile(join(c.logDir, file), "");
  const res = await fetch(`${c.base}/plugin/logmonitor/stream/start`, {
    method: "POST",
    headers: { "X-Api-Key": c.key, "Content-Type": "application/json" },
    body: JSON.stringify({ file }),
  });
  if (!res.ok) throw new Error(`stream/start answered ${res.status}: ${await res.text()}`);
  await res.body?.cancel();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

/** One row: clients of `mode` on a fresh `kind` server during the busy load. */
async function slowRow(kind: string, channel: "push" | "sse", reading: boolean, root: string) {
  const c = await spawn(kind, root);
  const clients = Number(values.clients);
  const closers: (() => void)[] = [];
  const stalled: Awaited<ReturnType<typeof stalledClient>>[] = [];
  let received = 0;
  try {
    if (channel === "push") await startTail(c, "busy.log");
    await sleep(2000);
    const before = await c.collected();
    for (let i = 0; i < clients; i++) {
      if (reading && channel === "push") {
        const ws = new WebSocket(`ws://127.0.0.1:${c.port}/push`, {
          headers: { "X-Api-Key": c.key },
        } as unknown as string[]);
        ws.onmessage = (e) => received += String(e.data).length;
        closers.push(() => ws.close());
      } else if (reading) {
        const res = await fetch(`${c.base}/api/benchmark/events`);
        const r = res.body!.getReader();
        void (async () => {
          while (true) {
            const { done, value } = await r.read().catch(() => ({ done: true, value: undefined }));
            if (done) break;
            received += value?.length ?? 0;
          }
        })();
        closers.push(() => void r.cancel().catch(() => {}));
      } else {
        const head = channel === "push"
          ? upgradeHead(c.port, "/push", { "X-Api-Key": c.key })
          : ["GET /api/benchmark/events HTTP/1.1", `Host: 127.0.0.1:${c.port}`];
        stalled.push(await stalledClient(c.port, head));
      }
    }
    await sleep(500);
    const lines = Number(values.lines);
    const line = `2026-01-01 12:00:00,000 - app.worker - INFO - ${"request handled ".repeat(9)}\n`;
    const block = new TextEncoder().encode(line.repeat(lines));
    let peak = before;
    const end = Date.now() + Number(values.seconds) * 1000;
    if (channel === "sse") {
      await fetch(`${c.base}/__publish?n=${values.events}`).then((r) => r.text());
    }
    const file = channel === "push"
      ? await Deno.open(join(c.logDir, "busy.log"), { append: true })
      : null;
    let written = 0;
    while (Date.now() < end) {
      if (file) written += await file.write(block);
      peak = Math.max(peak, await c.rss());
      await sleep(50);
    }
    file?.close();
    if (channel === "sse") await fetch(`${c.base}/__publish?n=0`).then((r) => r.text());
    await sleep(1000); // the tail catches up
    const held = await c.collected(); // the stalled clients still connected
    let lagged = 0;
    for (const s of stalled) {
      const { bytes } = await s.drain(1000);
      if (channel === "push" && serverFrames(bytes).close === 4408) lagged++;
      if (channel === "sse" && new TextDecoder().decode(bytes).includes('"type":"lagged"')) {
        lagged++;
      }
    }
    const who = `${kind === "host" ? "plugin host" : "dashboard (webapp)"}, ${clients} ${
      channel === "push" ? "push sockets" : "event streams"
    } ${reading ? "reading (peer)" : "never reading"}`;
    const load = `${channel === "push" ? `${mib(written)} appended` : "events published"}${
      reading ? `, ${mib(received / clients)} read per client` : ""
    }`;
    print(
      `| ${who} | ${load} | ${mib(before)} | ${mib(peak)} (+${mib(peak - before)}) | **+${
        mib(held - before)
      }** | ${reading ? "–" : `${lagged}/${clients}`} |`,
    );
  } finally {
    for (const close of closers) close();
    for (const s of stalled) s.close();
    await c.stop();
  }
}

async function stallRows(root: string, o: StallOptions): Promise<void> {
  print(stallHeader(o));
  for (const kind of ["host", "webapp"]) {
    const c = await spawn(kind, root);
    try {
      await startTail(c, "long.log");
      await stallRow(c, kind === "host" ? "plugin host" : "dashboard (webapp)", o);
    } finally {
      await c.stop();
    }
  }
}

if (values.serve) {
  await serve(values.serve, values.root!);
} else {
  await ensureIslandsBuilt();
  const root = await Deno.makeTempDir({ prefix: "localbench-slow-" });
  try {
    const only = values.only;
    if (only !== "stall") {
      print(
        `Busy tail: ${values.lines} lines of ~200 bytes every 50 ms for ${values.seconds} s; ` +
          `${values.clients} clients per row; each row on a fresh server process.\n`,
      );
      print(
        "| server, clients | load | RSS at rest | RSS peak (growth) | growth held after a GC | told lagged |",
      );
      print("|---|---|---|---|---|---|");
    }
    for (const kind of ["host", "webapp"]) {
      if (only && only !== "push") break;
      for (const reading of [true, false]) await slowRow(kind, "push", reading, root);
    }
    for (const reading of [true, false]) {
      if (!only || only === "sse") await slowRow("webapp", "sse", reading, root);
    }
    if (only && only !== "stall") Deno.exit(0);
    await stallRows(root, {
      rounds: Number(values.rounds),
      windowMs: Number(values.window),
      everyMs: Number(values.every),
      lineBytes: 200 * 1024 * 1024,
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
