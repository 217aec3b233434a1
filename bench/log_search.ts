/**
 * Benchmark of the log monitor's streaming search against `grep -c` on the same generated log
 * (1 GiB by default): a string that never occurs (full scan) and a common one (the search
 * stops at page + 1). Prints wall time, the time ratio and peak memory (RSS high-water mark
 * from /proc, sampled for both programs the same way).
 *
 * Usage: `deno run -A bench/log_search.ts [--size-mb 1024] [--file PATH] [--keep]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { print } from "../lib/log.ts";
import { parseSearchParams, searchFile } from "../plugins/logmonitor/mod.ts";

const NEVER = "zq-never-occurs-qz";
const COMMON = "handled";

/** Writes a log of about `bytes` bytes in the print-host line format. */
async function generate(path: string, bytes: number): Promise<void> {
  const levels = ["INFO", "INFO", "INFO", "DEBUG", "WARNING", "ERROR"];
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  let written = 0;
  let i = 0;
  try {
    while (written < bytes) {
      const lines: string[] = [];
      for (let k = 0; k < 20_000; k++, i++) {
        const s = String(i % 60).padStart(2, "0");
        const lv = levels[i % levels.length];
        lines.push(
          `2026-01-01 12:${String((i >> 6) % 60).padStart(2, "0")}:${s},${
            String(i % 1000).padStart(3, "0")
          }` +
            ` - localbench.host.plugins.demo - ${lv} - Request ${i} from 10.0.${i % 256}.${
              (i >> 8) % 256
            } handled in ${i % 97} ms`,
        );
      }
      const chunk = enc.encode(lines.join("\n") + "\n");
      await file.write(chunk.subarray(0, Math.min(chunk.length, bytes - written + 200)));
      written += chunk.length;
    }
  } finally {
    file.close();
  }
}

interface Run {
  ms: number;
  peakRssMb: number;
  output: string;
}

/** Runs a command and samples its RSS high-water mark (VmHWM) every 5 ms. */
async function measure(cmd: string, args: string[]): Promise<Run> {
  const t0 = performance.now();
  const child = new Deno.Command(cmd, { args, stdout: "piped", stderr: "inherit" }).spawn();
  let peakKb = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      try {
        const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        if (kb > peakKb) peakKb = kb;
      } catch {
        // the process ended between samples
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const out = await child.output();
  const ms = performance.now() - t0;
  done = true;
  await sampler;
  return { ms, peakRssMb: peakKb / 1024, output: new TextDecoder().decode(out.stdout).trim() };
}

/** Child mode: one search, prints `total`. */
async function searchChild(path: string, query: string): Promise<void> {
  const params = parseSearchParams({ query, levels: [] }, 50);
  const r = await searchFile(path, params);
  print(String(r.total));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "size-mb": { type: "string", default: "1024" },
      file: { type: "string" },
      keep: { type: "boolean", default: false },
      "search-child": { type: "string" },
      query: { type: "string" },
    },
  });
  if (values["search-child"]) return await searchChild(values["search-child"], values.query ?? "");
  const bytes = Number(values["size-mb"]) * 1024 * 1024;
  const dir = values.file ? null : await Deno.makeTempDir({ prefix: "lb_bench_" });
  const path = values.file ?? join(dir!, "bench.log");
  try {
    const exists = await Deno.stat(path).then((s) => s.size >= bytes).catch(() => false);
    if (!exists) {
      print(`Generating ${values["size-mb"]} MiB log at ${path} ...`);
      await generate(path, bytes);
    }
    const size = (await Deno.stat(path)).size;
    print(`File: ${path} (${(size / 2 ** 20).toFixed(0)} MiB)\n`);
    const self = new URL(import.meta.url).pathname;
    const deno = Deno.execPath();
    const rows: string[][] = [[
      "case",
      "tool",
      "result",
      "time (s)",
      "peak RSS (MiB)",
      "ratio vs grep -c",
    ]];
    const cases: [string, string][] = [
      ["never occurs (full scan)", NEVER],
      ["common (early stop)", COMMON],
    ];
    for (const [label, query] of cases) {
      const grep = await measure("grep", ["-c", "-F", query, path]);
      const ours = await measure(deno, [
        "run",
        "-A",
        self,
        "--search-child",
        path,
        "--query",
        query,
      ]);
      const ratio = (ours.ms / grep.ms).toFixed(2);
      rows.push([
        label,
        "grep -c",
        `count ${grep.output}`,
        (grep.ms / 1000).toFixed(2),
        grep.peakRssMb.toFixed(1),
        "1.00",
      ]);
      rows.push([
        label,
        "logmonitor search",
        `total ${ours.output}`,
        (ours.ms / 1000).toFixed(2),
        ours.peakRssMb.toFixed(1),
        ratio,
      ]);
      if (query === COMMON) {
        const grepM = await measure("grep", ["-c", "-m", "51", "-F", query, path]);
        rows.push([
          label,
          "grep -c -m 51",
          `count ${grepM.output}`,
          (grepM.ms / 1000).toFixed(2),
          grepM.peakRssMb.toFixed(1),
          (grepM.ms / grep.ms).toFixed(2),
        ]);
      }
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) print(r.map((c, i) => c.padEnd(widths[i]!)).join("  "));
    print(
      "\nlogmonitor search times include starting Deno (about 0.05 s) and its RSS the runtime (about 40 MiB).",
    );
  } finally {
    if (dir && !values.keep) await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
