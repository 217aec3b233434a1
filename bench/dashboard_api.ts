/**
 * Dashboard benchmark: latency (median and p95) of `GET /api/results` and
 * `GET /api/dashboard/stats` with 100 000 stored runs, and the JavaScript the Home view ships
 * (boot script, its islands and every chunk they import, statically or on demand), raw and
 * gzipped. Run: `deno run -A bench/dashboard_api.ts [--runs 100000] [--requests 50]`.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createLogger, print } from "../lib/log.ts";
import { ISLANDS_DIR } from "../lib/control/app.ts";
import { seedStore } from "../tests/routes/_seed.ts";
import { createWebApp, STATIC_DIR } from "../webapp.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "100000" },
    requests: { type: "string", default: "50" },
  },
});
const totalRuns = Number(values.runs);
const requests = Number(values.requests);

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (pos - lo);
}

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** Every file reachable from the entries through `import` / `import()` of relative chunks. */
async function reachable(dir: string, entries: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const text = await Deno.readTextFile(join(dir, name));
    for (const m of text.matchAll(/["']\.\/([\w-]+\.js)["']/g)) queue.push(m[1]!);
  }
  return [...seen].sort();
}

const root = await Deno.makeTempDir({ prefix: "localbench-bench-" });
const vars: Record<string, string> = {
  HOME: root,
  LOCALBENCH_DATA_DIR: join(root, "data"),
  LOCALBENCH_CONFIG_DIR: join(root, "config"),
};
const web = await createWebApp({
  env: (n) => vars[n],
  plugins: null,
  build: true,
  logger: createLogger("bench", { sink: () => {} }),
});
try {
  const perResult = 10;
  const variants = Math.ceil(totalRuns / perResult / 25 / 2);
  const seeded = seedStore(web.store, {
    models: Array.from({ length: variants }, (_, i) => `org${i % 7}/model-${i}`),
    quants: ["q4_k_m", "q8_0"],
    resultsPerVariant: 25,
    runsPerResult: perResult,
  });
  const latency: Record<string, { median_ms: number; p95_ms: number; bytes: number }> = {};
  for (const path of ["/api/results", "/api/dashboard/stats"]) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < requests + 3; i++) {
      const t0 = performance.now();
      const res = await web.fetch(new Request(`http://localhost${path}`));
      bytes = (await res.arrayBuffer()).byteLength;
      if (i >= 3) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    latency[path] = {
      median_ms: Math.round(quantile(times, 0.5) * 100) / 100,
      p95_ms: Math.round(quantile(times, 0.95) * 100) / 100,
      bytes,
    };
  }
  const dir = join(STATIC_DIR, ISLANDS_DIR);
  const html = await (await web.fetch(new Request("http://localhost/"))).text();
  const islands = [...new Set([...html.matchAll(/data-island="(\w+)"/g)].map((m) => m[1]!))];
  const files = await reachable(dir, ["boot.js", ...islands.map((n) => `${n}.js`)]);
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const bytes = await Deno.readFile(join(dir, f));
    raw += bytes.byteLength;
    gz += await gzipSize(bytes);
  }
  print(JSON.stringify(
    {
      stored_runs: seeded,
      model_variants: variants * 2,
      requests,
      latency,
      home_js: { files, bytes: raw, gzip_bytes: gz },
    },
    null,
    2,
  ));
} finally {
  await web.close();
  await Deno.remove(root, { recursive: true });
}
