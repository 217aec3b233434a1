import assert from "node:assert/strict";
import { join } from "node:path";
import { quantile } from "../../../lib/stats.ts";
import { gapsOf, type Row } from "../../../lib/store/mod.ts";
import {
  buildReport,
  exportEntries,
  renderCsv,
  renderHtml,
  renderJson,
  renderPdf,
  type ReportData,
  type ReportEntry,
} from "../../../lib/reports/mod.ts";
import {
  latencyPercentile,
  levelPercentile,
  reportPercentiles,
} from "../../../lib/reports/percentiles.ts";
import { loadCells, loadHeads } from "../../../lib/reports/serving.ts";
import { parseCsv } from "./csv_parse.ts";
import { fixtureStore, runOptions } from "./fixtures.ts";
import { fixtureReport } from "./report_data.ts";

/** What lib/stats.ts computes from an entry's measured runs for percentile `p` of `metric`. */
function fromRuns(e: ReportEntry, metric: string, p: number): number {
  const runs = e.runs.filter((r) =>
    (r.status ?? "ok") === "ok" && (r.parallel ?? 1) === 1 && (r.load_mode ?? null) === null
  );
  const xs = (metric === "itl_ms" ? runs.flatMap((r) => gapsOf(r)) : runs.map((r) => r[metric]))
    .filter((v): v is number => typeof v === "number").sort((a, b) => a - b);
  return quantile(xs, p / 100)!;
}

const CHOSEN = [50, 95, 99.9];

Deno.test("reportPercentiles() takes --percentiles first, else the results' stored choice, else p50, p90, p99", async () => {
  const data = await fixtureReport();
  assert.deepEqual(data.percentiles, [50, 90, 99]);
  assert.deepEqual((await fixtureReport({ percentiles: [99.9, 50, 95] })).percentiles, CHOSEN);
  const [a, b] = data.entries;
  const stored = [{ ...a!, workload: { percentiles: [99.9] } }, {
    ...b!,
    workload: { cells: ["pp64 tg16"], percentiles: [50, 99] },
  }];
  assert.deepEqual(reportPercentiles(stored, null), [50, 99, 99.9], "the union, ascending");
  assert.deepEqual(reportPercentiles(stored, [95]), [95], "the option wins");
});

Deno.test("latencyPercentile() reads a stored column and computes any other percentile from the runs as lib/stats.ts does", async () => {
  const data = await fixtureReport();
  for (const e of data.entries) {
    for (const metric of ["ttft_ms", "tpot_ms", "itl_ms", "total_ms"] as const) {
      assert.equal(latencyPercentile(e, metric, 90), e.row[`${metric}_p90`]);
      assert.equal(latencyPercentile(e, metric, 50), e.row[`${metric}_median`]);
      assert.equal(latencyPercentile(e, metric, 99.9), fromRuns(e, metric, 99.9), metric);
      assert.equal(latencyPercentile(e, metric, 75), fromRuns(e, metric, 75), metric);
    }
    // What is stored is what the runs give (the stored column is no approximation).
    assert.equal(e.row.ttft_ms_p99, fromRuns(e, "ttft_ms", 99));
  }
  const imported = { ...data.entries[0]!, runs: [] };
  assert.equal(latencyPercentile(imported, "ttft_ms", 99), imported.row.ttft_ms_p99);
  assert.equal(latencyPercentile(imported, "ttft_ms", 99.9), null, "no runs: nothing to compute");
});

Deno.test("a load level's percentiles come from its stored columns, or from its own requests", () => {
  const level: Row = { mode: "concurrency", level: 2, ok: 4, requests: 4, latency_ms_p50: 250 };
  const runs: Row[] = [100, 200, 300, 400].map((ms) => ({
    load_mode: "concurrency",
    load_level: 2,
    total_ms: ms,
    ttft_ms: ms / 10,
    tpot_ms: 1,
  }));
  runs.push({ load_mode: "concurrency", load_level: 4, total_ms: 9999 });
  runs.push({ load_mode: "concurrency", load_level: 2, total_ms: 5000, status: "failed" });
  assert.equal(levelPercentile(level, runs, "latency_ms", 50), 250, "stored");
  assert.equal(
    levelPercentile(level, runs, "latency_ms", 99.9),
    quantile([100, 200, 300, 400], 99.9 / 100),
  );
  assert.deepEqual(loadHeads([50, 99.9]).slice(5, 8), [
    "Latency p50 / p99.9 ms",
    "TTFT p50 / p99.9 ms",
    "TPOT p50 / p99.9 ms",
  ]);
  assert.deepEqual(loadCells(level, runs, [50, 99.9]).slice(5, 8), [
    "250 / 400",
    "25.0 / 40.0",
    "1.00 / 1.00",
  ]);
});

Deno.test("the JSON report holds the chosen percentiles of each result, equal to what the runs give", async () => {
  const json = JSON.parse(renderJson(await fixtureReport({ percentiles: CHOSEN })));
  assert.deepEqual(json.percentiles, CHOSEN);
  const data = await fixtureReport();
  for (const out of json.results) {
    const e = data.entries.find((x) => x.row.model_key === out.model_key)!;
    assert.deepEqual(Object.keys(out.latency_percentiles.ttft_ms), ["p50", "p95", "p99.9"]);
    assert.equal(out.latency_percentiles.ttft_ms["p99.9"], fromRuns(e, "ttft_ms", 99.9));
    assert.equal(out.latency_percentiles.itl_ms["p99.9"], fromRuns(e, "itl_ms", 99.9));
    assert.equal(out.latency_percentiles.total_ms.p95, e.row.total_ms_p95);
  }
  const plain = JSON.parse(renderJson(data));
  assert.deepEqual(plain.percentiles, [50, 90, 99]);
  assert.deepEqual(Object.keys(plain.results[0].latency_percentiles.tpot_ms), [
    "p50",
    "p90",
    "p99",
  ]);
});

Deno.test("the CSV report gains a column for each chosen percentile it does not store, and only then", async () => {
  const data = await fixtureReport({ percentiles: CHOSEN });
  const [head, ...rows] = parseCsv(renderCsv(data));
  for (const m of ["ttft_ms", "tpot_ms", "itl_ms", "total_ms"]) {
    assert.ok(head!.includes(`${m}_p99.9`), `${m}_p99.9`);
    assert.ok(!head!.includes(`${m}_p50`), "p50 is the stored median");
    assert.equal(head!.filter((c) => c === `${m}_p95`).length, 1, "p95 is stored already");
  }
  const after = head!.indexOf("total_ms_p99") + 1;
  assert.deepEqual(head!.slice(after, after + 3), [
    "ttft_ms_p99.9",
    "tpot_ms_p99.9",
    "itl_ms_p99.9",
  ]);
  for (const row of rows) {
    const e = data.entries.find((x) => x.row.model_key === row[0])!;
    const cell = (c: string) => Number(row[head!.indexOf(c)]);
    assert.equal(cell("ttft_ms_p99.9"), fromRuns(e, "ttft_ms", 99.9));
    assert.equal(cell("itl_ms_p99.9"), fromRuns(e, "itl_ms", 99.9));
  }
  const [plain] = parseCsv(renderCsv(await fixtureReport()));
  assert.equal(plain!.some((c) => c.endsWith("_p99.9") || c.endsWith("_p50")), false);
});

/** The head cells of the HTML latency tables, `TTFT mean`, `TTFT p50`, …, `Latency p99`. */
function latencyHeads(html: string): string[] {
  return ["ttft_ms", "tpot_ms", "itl_ms", "total_ms"].flatMap((metric) => {
    const table = new RegExp(`<table[^>]*id="latency-table-${metric}"[^]*?</thead>`).exec(html)![0];
    const [name, ...stats] = [...table.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!);
    return stats.map((s) => `${name} ${s}`);
  });
}

Deno.test("the HTML report's latency tables show the mean and each chosen percentile per metric", async () => {
  const data = await fixtureReport({ percentiles: CHOSEN });
  const html = await renderHtml(data);
  const heads = latencyHeads(html);
  assert.deepEqual(heads.slice(0, 4), ["TTFT mean", "TTFT p50", "TTFT p95", "TTFT p99.9"]);
  assert.equal(heads.at(-1), "Latency p99.9");
  assert.equal(heads.length, 4 * 4);
  const e = data.entries[0]!;
  assert.ok(html.includes(`data-v="${fromRuns(e, "ttft_ms", 99.9)}"`), "the value, sortable");
  const plain = latencyHeads(await renderHtml(await fixtureReport()));
  assert.deepEqual(plain.slice(0, 4), ["TTFT mean", "TTFT p50", "TTFT p90", "TTFT p99"]);
  assert.equal(plain.some((h) => h.includes("p99.9")), false);
});

const hasPoppler = (() => {
  try {
    return Deno.statSync("/usr/bin/pdftotext").isFile;
  } catch {
    return false;
  }
})();

async function pdfText(data: ReportData): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "report.pdf");
    await Deno.writeFile(file, await renderPdf(data));
    const out = await new Deno.Command("pdftotext", { args: ["-layout", file, "-"] }).output();
    assert.ok(out.success);
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "the PDF report's latency tables show the chosen percentiles, and p99.9 only when asked",
  ignore: !hasPoppler,
  async fn() {
    const text = await pdfText(await fixtureReport({ percentiles: CHOSEN }));
    assert.match(text, /TTFT\s+mean\s+p50\s+p95\s+p99\.9/);
    assert.match(text, /Latency\s+mean\s+p50\s+p95\s+p99\.9/);
    const plain = await pdfText(await fixtureReport());
    assert.match(plain, /TTFT\s+mean\s+p50\s+p90\s+p99\s/);
    assert.doesNotMatch(plain, /p99\.9/);
  },
});

Deno.test("a report made later shows the percentiles stored with its results", async () => {
  const store = fixtureStore();
  try {
    const opts = runOptions({ action: "export-only" });
    const entries = exportEntries(store, opts.filters)
      .map((e) => ({ ...e, workload: { percentiles: [99.9] } }));
    const data = await buildReport(entries, {
      source: "export-only",
      options: opts,
      resultsDir: "/nonexistent",
    });
    assert.deepEqual(data.percentiles, [99.9]);
    assert.ok(latencyHeads(await renderHtml(data)).includes("TTFT p99.9"));
  } finally {
    store.close();
  }
});
