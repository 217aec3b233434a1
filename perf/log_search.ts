/**
 * Log search over HTTP against grep, side by side in one run.
 *
 * Method: a generated OctoPrint-style log just under the 1 GiB search cap (1000 MiB by default;
 * UTF-8 `°` on about 8% of the lines, ERROR entries with tracebacks; `log_search_fixture.ts`)
 * sits in the log folder of a plugin host started as a separate process (the same host app
 * `deno task host` serves, with the search rate limit raised so repeats are not refused). Each
 * case is one `GET /plugin/logmonitor/search` timed from request to full JSON body, against
 * the named grep command with the same meaning, run as a process (output piped),
 * timed from spawn to exit (`LC_ALL=C`, or `C.UTF-8` for the cases with letters beyond ASCII,
 * as grep needs it to fold them). Full scans (no match, the level filter, the regexes, the
 * non-ASCII texts) are
 * compared with grep counting the whole file; the early-stop case (first page of 50 at 1%
 * matches) with `grep -i -m 51`, which also stops there. One untimed warm-up of every case,
 * then ≥ 5 interleaved repeats (ours and the peer alternate order each round); the median and
 * the minimum of each side are printed with the ratio of the medians. The host's resident
 * memory (VmRSS of its process, sampled every 5 ms) is reported fresh, at its peak per case and
 * during the searches, and 3 s after the last one (against its fresh size). The page cache is warm (the file was just written or read).
 * CPU seconds (user + system, medians) are printed beside the wall times: the host's from
 * /proc/<pid>/stat around each request, grep's from bash's `times` (grep runs under `bash -c`,
 * a few ms more of wall time; not for the early-stop case, which takes milliseconds); on a
 * machine loaded by other work they show what each side costs when wall times mostly wait.
 *
 * Usage: `deno run -A perf/log_search.ts [--size-mb 1000] [--repeats 5] [--file PATH] [--keep]
 * [--only TEXT]` (`--only`: the cases whose name holds TEXT, e.g. `--only RE2`).
 *
 * @module
 */
import { join } from "node:path";
import { print } from "../lib/log.ts";
import { createHost } from "../lib/host/mod.ts";
import { serveHostApp } from "../tests/_web.ts";
import { createLogMonitorPlugin } from "../plugins/logmonitor/mod.ts";
import {
  LITERAL_FREE_REGEX,
  NEVER_TERM,
  NON_ASCII_TERMS,
  ONE_PERCENT_TERM,
  RARE_REGEX,
  writeBenchLog,
} from "./log_search_fixture.ts";
import { parseOptions } from "../lib/args.ts";

interface Case {
  name: string;
  query: Record<string, string>;
  peer: string[];
  /** The peer's locale. @default "C" */
  locale?: string;
  goal: number;
  /** Whether CPU times are taken (not for milliseconds: the peer then runs without bash). */
  cpu?: boolean;
  /** The peer's output turned into a count comparable with our `total`. */
  peerCount(stdout: string): number;
  ourCount(body: { total: number; results: unknown[] }): number;
}

const CASES: Case[] = [
  {
    name: "no match, case-insensitive",
    query: { query: NEVER_TERM },
    peer: ["grep", "-ci", "-F", NEVER_TERM],
    goal: 3,
    peerCount: Number,
    ourCount: (b) => b.total,
  },
  {
    name: "no match, case-sensitive",
    query: { query: NEVER_TERM, case_sensitive: "true" },
    peer: ["grep", "-c", "-F", NEVER_TERM],
    goal: 3,
    peerCount: Number,
    ourCount: (b) => b.total,
  },
  {
    name: "levels=CRITICAL, empty query",
    query: { levels: "CRITICAL" },
    peer: ["grep", "-c", " - CRITICAL - "],
    goal: 3,
    peerCount: Number,
    ourCount: (b) => b.total,
  },
  {
    name: "regex (case-insensitive)",
    query: { query: RARE_REGEX, use_regex: "true" },
    peer: ["grep", "-ciE", RARE_REGEX],
    goal: 2,
    peerCount: Number,
    ourCount: (b) => b.total,
  },
  {
    name: "regex without fixed text (RE2)",
    query: { query: LITERAL_FREE_REGEX, use_regex: "true", case_sensitive: "true" },
    peer: ["grep", "-cE", LITERAL_FREE_REGEX],
    goal: 3,
    peerCount: Number,
    ourCount: (b) => b.total,
  },
  {
    name: "catastrophic regex (a+)+$ (RE2)",
    query: { query: "(a+)+$", use_regex: "true", case_sensitive: "true" },
    peer: ["grep", "-cE", "(a+)+$"],
    goal: 3,
    peerCount: Number,
    ourCount: (b) => b.total,
  },
  ...NON_ASCII_TERMS.map((term): Case => ({
    name: `non-ASCII ${term}, case-insensitive`,
    query: { query: term },
    peer: ["grep", "-ci", "-F", term],
    locale: "C.UTF-8",
    goal: 3,
    peerCount: Number,
    ourCount: (b) => b.total,
  })),
  {
    name: "1% matches, first page of 50",
    query: { query: ONE_PERCENT_TERM, limit: "50" },
    peer: ["grep", "-i", "-m", "51", "-F", ONE_PERCENT_TERM],
    goal: 3,
    cpu: false,
    peerCount: (out) => out.split("\n").filter((l) => l !== "").length,
    ourCount: (b) => b.results.length + (b.total > b.results.length ? 1 : 0),
  },
];

/** Child mode: serves a host over `dataDir` and prints its port and key. */
async function serve(dataDir: string): Promise<void> {
  const plugin = createLogMonitorPlugin({ searchRate: { max: 1_000_000, windowMs: 60_000 } });
  const host = createHost({ plugins: [plugin], dataDir });
  const served = await serveHostApp(host, { pages: false });
  await host.settings.updateMany({ logmonitor: { regex_search_enabled: true } });
  print(JSON.stringify({ port: served.port, key: served.adminKey }));
  await new Promise(() => {});
}

/** CPU seconds (user + system) a process has used so far, from /proc (0 when unreadable). */
function cpuSeconds(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in ticks of 10 ms
  } catch {
    return 0;
  }
}

/** The children's user and system seconds from bash's `times` (its second line). */
function childCpuSeconds(timesOutput: string): number {
  const line = timesOutput.trim().split("\n").at(-1) ?? "";
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
    0,
  );
}

function rssMb(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (ms: number) => ms >= 100 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
  const { values } = parseOptions({
    args: Deno.args,
    options: {
      "size-mb": { type: "string", default: "1000" },
      repeats: { type: "string", default: "5" },
      file: { type: "string" },
      keep: { type: "boolean", default: false },
      serve: { type: "string" },
      only: { type: "string" },
    },
  });
  if (values.serve) return await serve(values.serve);
  const repeats = Math.max(5, Number(values.repeats));
  const dataDir = await Deno.makeTempDir({ prefix: "lb_logbench_" });
  const logDir = join(dataDir, "host", "logs");
  await Deno.mkdir(logDir, { recursive: true });
  const path = join(logDir, "bench.log");
  const bytes = Number(values["size-mb"]) * 1024 * 1024;
  const child = new Deno.Command(Deno.execPath(), {
    // As the scoped host runs (lib/host/supervise/child_processes.ts): with `gc()` exposed.
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc",
      new URL(import.meta.url).pathname,
      "--serve",
      dataDir,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    if (values.file) {
      await Deno.link(values.file, path).catch(() => Deno.copyFile(values.file!, path));
    } else {
      print(`Generating ${values["size-mb"]} MiB at ${path} ...`);
      await writeBenchLog(path, bytes);
    }
    const size = (await Deno.stat(path)).size;
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let first = "";
    while (!first.includes("\n")) first += (await reader.read()).value ?? "";
    const { port, key } = JSON.parse(first.split("\n")[0]!);
    const base = `http://127.0.0.1:${port}/plugin/logmonitor/search?file=bench.log&`;

    let peak = 0;
    const casePeak = new Map<Case, number>();
    const ours = async (c: Case) => {
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const mb = rssMb(child.pid);
          peak = Math.max(peak, mb);
          casePeak.set(c, Math.max(casePeak.get(c) ?? 0, mb));
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const cpu0 = cpuSeconds(child.pid);
      const t0 = performance.now();
      const res = await fetch(base + new URLSearchParams(c.query), {
        headers: { "X-Api-Key": key },
      });
      const body = await res.json();
      const ms = performance.now() - t0;
      const cpu = cpuSeconds(child.pid) - cpu0;
      sampling = false;
      await sampler;
      // A refusal (e.g. 422 regex_timeout) is reported in the table, not taken for a count.
      return { ms, cpu, count: res.status === 200 ? c.ourCount(body) : `HTTP ${res.status}` };
    };
    const peer = async (c: Case) => {
      const t0 = performance.now();
      // Through bash, whose `times` gives grep's CPU time (on stderr).
      const [cmd, ...args] = c.cpu === false
        ? [...c.peer, path]
        : ["bash", "-c", '"$@"; s=$?; times >&2; exit $s', "bash", ...c.peer, path];
      const out = await new Deno.Command(cmd!, {
        args,
        env: { LC_ALL: c.locale ?? "C" },
      })
        .output();
      const ms = performance.now() - t0;
      return {
        ms,
        cpu: childCpuSeconds(new TextDecoder().decode(out.stderr)),
        count: String(c.peerCount(new TextDecoder().decode(out.stdout).trim())) as
          | string
          | number,
      };
    };

    const restMb = rssMb(child.pid);
    const cases = CASES.filter((c) => !values.only || c.name.includes(values.only));
    const times = cases.map(() => ({
      ours: [] as number[],
      peer: [] as number[],
      oursCpu: [] as number[],
      peerCpu: [] as number[],
      counts: "",
    }));
    for (const [i, c] of cases.entries()) {
      const [a, b] = [await ours(c), await peer(c)];
      times[i]!.counts = `${a.count} / ${b.count}`;
    }
    peak = 0;
    casePeak.clear();
    for (let r = 0; r < repeats; r++) {
      for (const [i, c] of cases.entries()) {
        const order = r % 2 === 0 ? [ours, peer] : [peer, ours];
        for (const run of order) {
          const { ms, cpu } = await run(c);
          (run === ours ? times[i]!.ours : times[i]!.peer).push(ms);
          (run === ours ? times[i]!.oursCpu : times[i]!.peerCpu).push(cpu);
        }
      }
    }

    print(
      `File: ${(size / 2 ** 20).toFixed(0)} MiB, ${repeats} interleaved repeats, page cache warm`,
    );
    print("");
    const rows = [[
      "case",
      "localbench median (min)",
      "peer",
      "peer median (min)",
      "ratio",
      "goal",
      "CPU s ours / peer (ratio)",
      "matches ours / peer",
      "host peak RSS",
    ]];
    for (const [i, c] of cases.entries()) {
      const t = times[i]!;
      const ratio = median(t.ours) / median(t.peer);
      rows.push([
        c.name,
        `${fmt(median(t.ours))} (${fmt(Math.min(...t.ours))})`,
        `LC_ALL=${c.locale ?? "C"} ${c.peer.map((a) => a.includes(" ") ? `'${a}'` : a).join(" ")}`,
        `${fmt(median(t.peer))} (${fmt(Math.min(...t.peer))})`,
        `${ratio.toFixed(2)}×${ratio <= c.goal ? "" : " (over goal)"}`,
        `≤ ${c.goal}×`,
        c.cpu === false
          ? "—"
          : `${median(t.oursCpu).toFixed(2)} / ${median(t.peerCpu).toFixed(2)} (${
            (median(t.oursCpu) / Math.max(median(t.peerCpu), 0.01)).toFixed(1)
          }×)`,
        t.counts,
        `${(casePeak.get(c) ?? 0).toFixed(0)} MB`,
      ]);
    }
    const widths = rows[0]!.map((_, k) => Math.max(...rows.map((r) => r[k]!.length)));
    for (const r of rows) print(r.map((x, k) => x.padEnd(widths[k]!)).join("  "));
    // After the searches: a few idle seconds for terminated workers and the collector.
    await new Promise((r) => setTimeout(r, 3000));
    const afterMb = rssMb(child.pid);
    print("");
    print(
      `Host resident memory: ${restMb.toFixed(0)} MB fresh, peak ${peak.toFixed(0)} MB ` +
        `during the searches (goal ≤ 150 MB)${peak <= 150 ? "" : " (over goal)"}, ` +
        `${afterMb.toFixed(0)} MB 3 s after them (goal ≤ fresh + 10 MB)` +
        `${afterMb <= restMb + 10 ? "" : " (over goal)"}; grep ~2 MB.`,
    );
  } finally {
    child.kill("SIGTERM");
    await child.status;
    if (!values.keep) await Deno.remove(dataDir, { recursive: true });
    else print(`Kept ${dataDir}`);
  }
}

if (import.meta.main) await main();
