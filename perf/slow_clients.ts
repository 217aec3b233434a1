/**
 * Slow clients and the cost of the relay in front of `Deno.serve` (issue 28.3): what
 * `serveWithLimits()` (lib/http/serve.ts) buys and what it costs.
 *
 * Method
 * - localbench: `serveWithLimits()` with its defaults (10 s header timeout, 256 connections)
 *   answering a 2 KiB body; peer: a bare `Deno.serve` answering the same bytes. Both on
 *   127.0.0.1, free ports, in this process.
 * - Slow headers: `--slow` connections (default 1000) each send half a header line
 *   (`GET / HTTP/1.1\r\nHost: 127.0`) and wait; printed: how many each server answered 503 at
 *   once, and how many it still holds open after 12 s.
 * - Cost: `--clients` concurrent clients (default 20) × `--requests` sequential requests each
 *   (default 250) with `fetch` (keep-alive); printed: requests per second and the median and p95
 *   latency, for both, and their ratio.
 *
 * Run: `deno run -A perf/slow_clients.ts [--slow 1000] [--clients 20] [--requests 250]`
 *
 * @module
 */
import { parseOptions } from "../lib/args.ts";
import { print } from "../lib/log.ts";
import { serveWithLimits } from "../lib/http/mod.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    slow: { type: "string", default: "1000" },
    clients: { type: "string", default: "20" },
    requests: { type: "string", default: "250" },
  },
});
const BODY = "x".repeat(2048);
const handler = () => new Response(BODY);

async function slowHeaders(port: number, count: number) {
  const state = { refused: 0, open: 0 };
  const conns = await Promise.all(
    Array.from({ length: count }, () => Deno.connect({ hostname: "127.0.0.1", port })),
  );
  for (const conn of conns) {
    state.open++;
    void (async () => {
      await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: 127.0"));
      const buf = new Uint8Array(256);
      let first = true;
      try {
        for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
          if (first && new TextDecoder().decode(buf.subarray(0, n)).includes(" 503 ")) {
            state.refused++;
          }
          first = false;
        }
      } catch { /* closed by us */ }
      state.open--;
    })();
  }
  await new Promise((r) => setTimeout(r, 12_000));
  const result = { refused: state.refused, heldAfter12s: state.open };
  for (const conn of conns) {
    try {
      conn.close();
    } catch { /* closed */ }
  }
  return result;
}

async function load(port: number, clients: number, requests: number) {
  const times: number[] = [];
  const start = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/`);
      await res.arrayBuffer();
      times.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  return {
    perSecond: times.length / seconds,
    median: times[Math.floor(times.length / 2)]!,
    p95: times[Math.floor(times.length * 0.95)]!,
  };
}

const slow = Number(values.slow);
const clients = Number(values.clients);
const requests = Number(values.requests);
const bare = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
const limited = serveWithLimits({ hostname: "127.0.0.1", port: 0 }, handler);
try {
  // Warm-up, then the cost, then the slow clients (which leave the bare server full).
  await load(bare.addr.port, 4, 50);
  await load(limited.addr.port, 4, 50);
  const costBare = await load(bare.addr.port, clients, requests);
  const costLimited = await load(limited.addr.port, clients, requests);
  const slowBare = await slowHeaders(bare.addr.port, slow);
  const slowLimited = await slowHeaders(limited.addr.port, slow);
  const f = (n: number) => n.toFixed(2);
  print(`slow headers, ${slow} connections: refused at once / still held after 12 s`);
  print(`  bare Deno.serve:   ${slowBare.refused} / ${slowBare.heldAfter12s}`);
  print(`  serveWithLimits(): ${slowLimited.refused} / ${slowLimited.heldAfter12s}`);
  print(`cost, ${clients} clients x ${requests} requests: req/s, median ms, p95 ms`);
  print(
    `  bare Deno.serve:   ${costBare.perSecond.toFixed(0)}, ${f(costBare.median)}, ${
      f(costBare.p95)
    }`,
  );
  print(
    `  serveWithLimits(): ${costLimited.perSecond.toFixed(0)}, ${f(costLimited.median)}, ` +
      `${f(costLimited.p95)} (${f(costBare.perSecond / costLimited.perSecond)}x fewer req/s)`,
  );
} finally {
  await limited.shutdown();
  await bare.shutdown();
}
