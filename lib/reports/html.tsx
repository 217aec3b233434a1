/**
 * The HTML report: one self-contained file (chart.js, the specs and the script inlined; a
 * Content-Security-Policy forbids every network request) with the summary, a sortable results
 * table, the parallel rounds, recommendations, the charts, the serving sections, the comparison,
 * statistics, parameters, profiling and system information. Its tables fit the window: cells wrap
 * at 1440 px, and on a phone each row of the results becomes a card of labelled values.
 *
 * @module
 */
import { machineName, machinePairs } from "./machines.ts";
import { renderToString } from "preact-render-to-string";
import { chartJsBrowserSource } from "./assets.ts";
import { chartSpecs } from "./chart_specs.ts";
import {
  CI_CLAMPED_NOTE,
  ciClamped,
  ciText,
  deltaCell,
  deltaText,
  runsText,
  yesNo,
} from "./format.ts";
import { dateTime, fixed } from "../shared/format.ts";
import { acrossModels, bestPerQuantization, recommendations, reportSummary } from "./insights.ts";
import {
  displayName,
  modelCellText,
  num,
  type ReportData,
  type ReportEntry,
  sizeGb,
} from "./model.ts";
import { flattenParams, parameterSets } from "./parameters.ts";
import { appliedRows } from "./applied.ts";
import { rankEntries } from "./rank.ts";
import {
  HARDWARE_LABELS,
  hasProfiling,
  noProfilingText,
  profiled,
  resultNotes,
} from "./profiling.ts";
import { REPORT_CSS, REPORT_SCRIPT } from "./html_assets.ts";
import { type Col, Section, Table } from "./html_parts.tsx";
import { AppliedTable, ParallelSection, ServingSections } from "./html_serving.tsx";

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  "img-src data:; connect-src 'none'";

/** Makes text safe inside a `<script>` element. */
export function scriptSafe(text: string): string {
  return text.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

function Card(props: { label: string; value: string }) {
  return (
    <div class="card">
      <span class="muted">{props.label}</span>
      <b>{props.value}</b>
    </div>
  );
}

const msToS = (ms: number | null) => (ms === null ? null : ms / 1000);

function numCol(head: string, column: string, digits = 1): Col {
  return { head, value: (e) => fixed(num(e, column), digits), sort: (e) => num(e, column) };
}

const loadWarmup = (e: ReportEntry) =>
  `${fixed(msToS(num(e, "load_time_ms")), 2)} / ${fixed(msToS(num(e, "warmup_ms")), 2)}`;

function resultColumns(data: ReportData): Col[] {
  const cols: Col[] = [
    { head: "Model", value: modelCellText, wrap: true },
    { head: "Machine", value: machineName, wrap: true },
    { head: "Quant", value: (e) => e.row.quantization ?? "–" },
    { head: "Arch", value: (e) => String(e.row.architecture ?? "–"), wrap: true },
    { head: "Params", value: (e) => String(e.row.params_size ?? "–") },
    { head: "Size (GiB)", value: (e) => fixed(sizeGb(e), 2), sort: sizeGb },
    {
      head: "Vision / tools",
      value: (e) => `${yesNo(e.row.has_vision)} / ${yesNo(e.row.has_tools)}`,
    },
    numCol("Tokens/s", "tokens_per_sec_mean"),
    {
      head: "95% CI",
      value: (e) => ciText(num(e, "tokens_per_sec_ci_low"), num(e, "tokens_per_sec_ci_high")),
      sort: (e) => num(e, "tokens_per_sec_ci_low"),
    },
    numCol("TTFT (ms)", "ttft_ms_mean", 0),
    numCol("E2E tok/s", "e2e_tokens_per_sec_mean"),
    numCol("Prefill tok/s", "prefill_tokens_per_sec_mean", 0),
    numCol("Tok/s per GiB", "tokens_per_sec_per_gb", 2),
    numCol("VRAM (MB)", "vram_mb", 0),
    { head: "Load / warmup (s)", value: loadWarmup, sort: (e) => num(e, "load_time_ms") },
    { head: "Runs", value: (e) => runsText(e.row), sort: (e) => num(e, "runs_ok") },
  ];
  if (data.compare) {
    cols.push(
      {
        head: "Δ speed",
        value: (e) => deltaCell(e.comparison?.speed),
        sort: (e) => e.comparison?.speed?.delta_pct ?? null,
      },
      {
        head: "Δ TTFT",
        value: (e) => deltaCell(e.comparison?.ttft),
        sort: (e) => e.comparison?.ttft?.delta_pct ?? null,
      },
    );
  }
  return cols;
}

function KeyValues(props: { pairs: [string, string][] }) {
  return (
    <div class="scroll">
      <table>
        <tbody>
          {props.pairs.map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td style="white-space: pre-wrap">{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Report(props: { data: ReportData }) {
  const { data } = props;
  const s = reportSummary(data.entries);
  const specs = chartSpecs(data);
  const ranked = rankEntries(data.entries, data.rank_by);
  const stats = acrossModels(data.entries);
  return (
    <main>
      <h1>localbench report</h1>
      <p class="muted">
        {data.entries.length} result(s) · {data.source === "export-only"
          ? "exported from the results store"
          : "measured in this benchmark"} · generated {dateTime(data.generated_at)} UTC · report
        {" "}
        {data.id}
      </p>
      <Section id="summary" title="Summary">
        <div class="cards">
          <Card label="Results (model variants)" value={`${s.models} (${s.variants})`} />
          <Card label="Measured runs" value={`${s.runs} (${s.failed_runs} failed)`} />
          <Card label="Average speed" value={`${fixed(s.average_tokens_per_sec)} tok/s`} />
          <Card label="Average TTFT" value={`${fixed(s.average_ttft_ms, 0)} ms`} />
          <Card
            label="Fastest"
            value={s.fastest ? `${s.fastest.name} (${fixed(s.fastest.tokens_per_sec)})` : "–"}
          />
          <Card
            label="Slowest"
            value={s.slowest ? `${s.slowest.name} (${fixed(s.slowest.tokens_per_sec)})` : "–"}
          />
          <Card label="Vision / tools" value={`${s.vision_models} / ${s.tool_models}`} />
          <Card label="Average size" value={`${fixed(s.average_size_gb, 2)} GiB`} />
        </div>
      </Section>
      <Section id="results" title="Results (click a column to sort)">
        <Table id="results-table" cols={resultColumns(data)} rows={ranked} stacked />
        {data.compare && (
          <p class="muted">
            Δ: change against report{" "}
            {data.compare.report_id}; * marks a significant change (Welch's t-test, p &lt; 0.05).
          </p>
        )}
        {ranked.some((e) =>
          ciClamped(num(e, "tokens_per_sec_ci_low"), num(e, "tokens_per_sec_ci_high"))
        ) && <p class="muted">{CI_CLAMPED_NOTE}</p>}
      </Section>
      <ParallelSection ranked={ranked} />
      <Section id="recommendations" title="Recommendations and best per quantization">
        <ul class="recs">{recommendations(data.entries).map((r) => <li key={r}>{r}</li>)}</ul>
        <KeyValues
          pairs={bestPerQuantization(data.entries).map((q) => [
            `${q.quantization} (${q.count})`,
            `fastest ${q.fastest ? displayName(q.fastest) : "–"} · most efficient ${
              q.most_efficient ? displayName(q.most_efficient) : "–"
            } · lowest TTFT ${q.lowest_ttft ? displayName(q.lowest_ttft) : "–"}`,
          ])}
        />
      </Section>
      <Section id="charts" title="Charts">
        <div class="charts">
          {specs.map((c) => (
            <div class="chart" key={c.id}>
              <canvas id={`chart-${c.id}`} aria-label={c.title} role="img"></canvas>
            </div>
          ))}
        </div>
      </Section>
      <ServingSections data={data} ranked={ranked} />
      {data.compare && (
        <Section id="comparison" title={`Comparison with report ${data.compare.report_id}`}>
          <KeyValues
            pairs={data.entries.map((e) => [
              displayName(e),
              e.comparison
                ? `speed ${deltaText(e.comparison.speed)}; time to first token ${
                  deltaText(e.comparison.ttft)
                }`
                : e.comparison_note ?? "not in the earlier report",
            ])}
          />
          <p class="muted">Significance: Welch's t-test on the per-run samples, p &lt; 0.05.</p>
        </Section>
      )}
      <Section id="statistics" title="Statistics across models">
        <KeyValues
          pairs={Object.entries(stats).map(([k, v]) => [
            k,
            `mean ${fixed(v.mean)} · median ${fixed(v.median)} · p95 ${fixed(v.p95)} · min ${
              fixed(v.min)
            } · max ${fixed(v.max)} (n = ${v.n})`,
          ])}
        />
      </Section>
      <Section id="parameters" title="Parameters (the values used)">
        <AppliedTable rows={appliedRows(data.entries)} />
        {parameterSets(data.entries).map((set) => (
          <div key={set.params_hash}>
            <p class="muted">
              Parameter set {set.params_hash} ({set.backend}, {set.num_runs.join("/")}{" "}
              run(s) per model): {set.models.join(", ")}
            </p>
            <KeyValues pairs={flattenParams(set.values)} />
          </div>
        ))}
        <p class="muted">Run options</p>
        <KeyValues pairs={flattenParams(data.options)} />
      </Section>
      <Section id="profiling" title="Hardware profiling">
        {hasProfiling(data.entries)
          ? (
            <Table
              id="profiling-table"
              rows={data.entries.filter(profiled)}
              cols={[
                { head: "Model", value: displayName },
                ...HARDWARE_LABELS.flatMap(([series, label]) =>
                  ["min", "max", "mean"].map((st) => numCol(`${label} ${st}`, `${series}_${st}`))
                ),
              ]}
            />
          )
          : <p class="muted">{noProfilingText(data.entries)}</p>}
      </Section>
      {resultNotes(data.entries).length > 0 && (
        <Section id="notes" title="Notes of the results">
          <KeyValues pairs={resultNotes(data.entries)} />
        </Section>
      )}
      <Section id="machines" title="Machines (as each result recorded them)">
        <KeyValues pairs={machinePairs(data.entries)} />
      </Section>
      <Section id="system" title="System">
        <KeyValues pairs={flattenParams(data.system)} />
      </Section>
      <footer>
        {data.tool.name} {data.tool.version} · schema localbench.report/1
      </footer>
    </main>
  );
}

/** Renders the self-contained HTML report. */
export async function renderHtml(data: ReportData): Promise<string> {
  const chartJs = await chartJsBrowserSource();
  const specs = JSON.stringify(chartSpecs(data));
  const body = renderToString(<Report data={data} />);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${data.tool.name} ${data.tool.version}">
<title>localbench report ${data.id}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
${body}
<script type="application/json" id="chart-specs">${scriptSafe(specs)}</script>
<script>${scriptSafe(chartJs)}</script>
<script>${scriptSafe(REPORT_SCRIPT)}</script>
</body>
</html>
`;
}
