/**
 * Memory under load on `GET /api/results`: does the dashboard's process return to its baseline
 * after a burst of concurrent requests? (The security review saw ~900 MB kept after load.)
 *
 * Method
 * - Store: `--runs` stored runs (default 100 000) over 150 variants with a realistic history
 *   (tests/lib/store/_history_seed.ts).
 * - localbench: the web app served by `Deno.serve` on 127.0.0.1 (the plugin host left out).
 * - Peer: a bare `Deno.serve` answering the same JSON bytes from memory (no Hono, no SQLite): the
 *   memory Deno's HTTP server and `fetch` keep by themselves under the same load.
 * - Each server runs in its own child process (this file with `--serve`), so the two never share
 *   a heap. The parent sends `--clients` concurrent clients × `--requests` requests each, and
 *   the child reports its resident set size (RSS) and V8 heap: at rest after a warm-up
 *   (baseline), the highest seen during the load (sampled every 50 ms), and 2 s after the load
 *   with a full garbage collection (after).
 * - Printed: baseline, peak and after, and after − baseline, for both.
 *
 * Run: `deno run -A perf/results_memory.ts [--runs 100000] [--clients 50] [--requests 40]`
 *
 * @module
 */
import { join } from "node:path";
import { createLogger, print } from "../lib/log.ts";
import { ResultsStore } from "../lib/store/mod.ts";
import { ensureIslandsBuilt } from "../tests/_helpers.ts";
import { seedHistory } from "../tests/lib/store/_history_seed.ts";
import { createWebApp } from "../app/mod.ts";
import { parseOptions } from "../lib/args.ts";
import { startServeChild } from "./_measure.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "100000" },
    clients: { type: "string", default: "50" },
    requests: { type: "string", default: "40" },
    serve: { type: "string" },
    root: { type: "string" },
  },
});

interface Memory {
  rss: number;
  heap: number;
}

function memory(): Memory {
  const m = Deno.memoryUsage();
  return { rss: m.rss, heap: m.heapTotal + m.external };
}

function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Child: serves `localbench` or `peer`, answers `/__memory` and `/__gc`. */
async function serve(kind: string, root: string): Promise<void> {
  const vars: Record<string, string> = {
    HOME: root,
    LOCALBENCH_DATA_DIR: join(root, "data"),
    LOCALBENCH_CONFIG_DIR: join(root, "config"),
  };
  let handler: (req: Request) => Response | Promise<Response>;
  if (kind === "localbench") {
    await ensureIslandsBuilt();
    const web = await createWebApp({
      env: (n) => vars[n],
      plugins: null,
      logger: createLogger("bench", { sink: () => {} }),
    });
    handler = (req) => web.fetch(req);
  } else {
    const bytes = await Deno.readFile(join(root, "results.json"));
    handler = () => new Response(bytes, { headers: { "Content-Type": "application/json" } });
  }
  let peak = memory();
  setInterval(() => {
    const m = memory();
    peak = { rss: Math.max(peak.rss, m.rss), heap: Math.max(peak.heap, m.heap) };
  }, 50);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/__gc") {
      collect();
      peak = memory();
      return Response.json(peak);
    }
    if (path === "/__peak") return Response.json(peak);
    return handler(req);
  });
  print(`port ${server.addr.port}`);
  await new Promise(() => {});
}

async function load(base: string, clients: number, requests: number): Promise<void> {
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let i = 0; i < requests; i++) {
      const res = await fetch(`${base}/api/results`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`/api/results answered ${res.status}`);
    }
  }));
}

async function measure(kind: string, root: string): Promise<Memory[]> {
  const server = await startServeChild(import.meta.url, [kind, "--root", root], /port (\d+)/);
  const base = `http://127.0.0.1:${server.ready[1]}`;
  const json = async (path: string) => (await (await fetch(`${base}${path}`)).json()) as Memory;
  try {
    await load(base, 2, 5);
    await new Promise((r) => setTimeout(r, 500));
    const baseline = await json("/__gc");
    await load(base, Number(values.clients), Number(values.requests));
    const peak = await json("/__peak");
    await new Promise((r) => setTimeout(r, 2000));
    const after = await json("/__gc");
    return [baseline, peak, after];
  } finally {
    await server.stop();
  }
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

if (values.serve) {
  await serve(values.serve, values.root!);
} else {
  const root = await Deno.makeTempDir({ prefix: "localbench-bench-" });
  try {
    await Deno.mkdir(join(root, "data"), { recursive: true });
    const store = ResultsStore.open(join(root, "data", "results.db"));
    const seeded = seedHistory(store.db, { runs: Number(values.runs), variants: 150 });
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    store.close();
    await ensureIslandsBuilt();
    const probe = await createWebApp({
      env: (n) =>
        ({ HOME: root, LOCALBENCH_DATA_DIR: join(root, "data") } as Record<string, string>)[n],
      plugins: null,
      logger: createLogger("bench", { sink: () => {} }),
    });
    const body = await (await probe.fetch(new Request("http://localhost/api/results"))).text();
    await probe.close();
    await Deno.writeTextFile(join(root, "results.json"), body);
    print(
      `${seeded.results} results, ${Number(values.runs).toLocaleString("en")} runs; ` +
        `/api/results is ${body.length} bytes; ${values.clients} clients × ${values.requests} requests`,
    );
    print(
      "\n| server | RSS baseline | RSS peak | RSS after | after − baseline | heap baseline | heap after |",
    );
    print("|---|---|---|---|---|---|---|");
    for (const kind of ["localbench", "peer"]) {
      const [b, p, a] = await measure(kind, root);
      print(
        `| ${
          kind === "peer" ? "peer: bare Deno.serve, same bytes" : "localbench /api/results"
        } | ` +
          `${mb(b!.rss)} | ${mb(p!.rss)} | ${mb(a!.rss)} | ${mb(a!.rss - b!.rss)} | ` +
          `${mb(b!.heap)} | ${mb(a!.heap)} |`,
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
