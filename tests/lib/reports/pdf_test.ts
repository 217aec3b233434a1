import assert from "node:assert/strict";
import { join } from "node:path";
import { type RankBy, renderJson, renderPdf } from "../../../lib/reports/mod.ts";
import { FIXTURE_MODELS, type FixtureModel } from "./fixtures.ts";
import { fixtureReport } from "./report_data.ts";

const hasPoppler = (() => {
  try {
    return Deno.statSync("/usr/bin/pdftotext").isFile && Deno.statSync("/usr/bin/pdftoppm").isFile;
  } catch {
    return false;
  }
})();

async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  assert.ok(out.success, `${cmd} failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

async function pdfOf(rankBy: RankBy): Promise<{ dir: string; file: string }> {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "report.pdf");
  await Deno.writeFile(file, await renderPdf(await fixtureReport({ rank_by: rankBy })));
  return { dir, file };
}

const pageText = (file: string, page: number) =>
  run("pdftotext", ["-layout", "-f", String(page), "-l", String(page), file, "-"]);

/** How far down each page its lowest word reaches (0–1), from `pdftotext -bbox`. */
async function pageFill(file: string): Promise<number[]> {
  const html = await run("pdftotext", ["-bbox", file, "-"]);
  return [...html.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)].map(
    ([, , height, body]) => {
      // The footer (page N of M) is on every page: the content is what is above it.
      const words = [...body!.matchAll(/yMax="([\d.]+)"/g)].map(([, y]) => Number(y));
      const content = words.filter((y) => y < Number(height) - 30);
      return Math.max(0, ...content) / Number(height);
    },
  );
}

Deno.test({
  name: "the PDF opens with the results and the recommendations, and its pages are filled",
  ignore: !hasPoppler,
  fn: async () => {
    const { dir, file } = await pdfOf("speed");
    try {
      const info = await run("pdfinfo", [file]);
      const pages = Number(/Pages:\s+(\d+)/.exec(info)![1]);
      assert.ok(pages >= 3 && pages <= 6, `pages: ${pages}`);
      const fonts = await run("pdffonts", [file]);
      assert.match(fonts, /DejaVuSans/);
      assert.doesNotMatch(fonts, /Helvetica/);
      const p1 = await pageText(file, 1);
      for (
        const s of [
          "localbench benchmark report",
          "Results",
          "--rank-by speed",
          "qwen/qwen3-4b",
          "google/gemma-3-12b",
          "meta/llama-3.2-1b",
          "51.4",
          "96.4",
          "Recommendations",
          "Fastest: llama-3.2-1b @q6_k",
          "Summary",
        ]
      ) {
        assert.ok(p1.includes(s), `page 1 lacks '${s}'`);
      }
      assert.ok(p1.indexOf("Results") < p1.indexOf("Recommendations"));
      // Sections follow each other: only the last page may end early.
      const fill = await pageFill(file);
      assert.equal(fill.length, pages);
      fill.slice(0, -1).forEach((f, i) =>
        assert.ok(f > 0.6, `page ${i + 1} ends at ${Math.round(f * 100)} % of its height`)
      );
      const all = await run("pdftotext", [file, "-"]);
      // The charts are vector graphics: their titles, axis titles and labels are text.
      for (
        const s of [
          "Charts",
          "Top 10 by speed",
          "Speed vs. model size",
          "Efficiency: tokens/s per GiB of model",
          "Model size (GiB)",
          "Tokens/s per GiB",
          "llama-3.2-1b @q6_k",
          "gemma-3-12b @q4_k_m",
          "Statistics per model",
          "95% CI",
          "Latency distributions (ms)",
          "TPOT",
          "Best per quantization",
          "Hardware profiling",
          "Parameters",
          "0.35",
          "4096",
          "System",
        ]
      ) {
        assert.ok(all.includes(s), `the PDF lacks '${s}'`);
      }
      assert.ok(all.indexOf("Charts") > all.indexOf("Recommendations"));
      assert.ok(all.indexOf("Parameters") > all.indexOf("Hardware profiling"), "parameters last");
      await run("pdftoppm", ["-r", "40", "-png", file, join(dir, "page")]);
      const pngs = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".png"));
      assert.equal(pngs.length, pages);
      for (const p of pngs) assert.ok(Deno.statSync(join(dir, p.name)).size > 3000);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** The fixture plus parallel rounds on one model and a model whose TTFTs are far apart. */
const WITH_PARALLEL: FixtureModel[] = [
  { ...FIXTURE_MODELS[0]!, parallel: { n: 4, totals: [150, 154, 152], latencies: [900, 950] } },
  ...FIXTURE_MODELS.slice(1),
  {
    key: "org/cold-start@q4_0",
    arch: "llama",
    params: "1B",
    sizeGiB: 0.8,
    speeds: [80, 81, 60],
    ttfts: [40, 45, 950],
  },
];

Deno.test({
  name: "the PDF shows the parallel rounds beside the results and no interval below zero",
  ignore: !hasPoppler,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const data = await fixtureReport({}, { models: WITH_PARALLEL });
      const file = join(dir, "report.pdf");
      await Deno.writeFile(file, await renderPdf(data));
      const p1 = await pageText(file, 1);
      assert.match(p1, /Parallel rounds: N requests at once/);
      assert.match(p1, /qwen3-4b @q4_k_m\s+4\s+152\.0\s+[\d.]+×\s+925\s+950\s+2\/2/);
      assert.match(p1, /Most throughput with 4 requests at once: qwen3-4b @q4_k_m/);
      const all = await run("pdftotext", ["-layout", file, "-"]);
      // The TTFT interval of 40, 45 and 950 ms is shown from 0, marked and explained.
      assert.match(all, /cold-start @q4_0 .* 0†–\d+/);
      assert.match(all, /† The 95% interval \(Student's t\) of these few, scattered runs/);
      assert.doesNotMatch(all, /-\d+(\.\d+)?–\d/, "no negative interval bound");
      const json = JSON.parse(renderJson(data)).results as Record<string, unknown>[];
      const lows = json.flatMap((e) => Object.entries(e).filter(([k]) => k.endsWith("_ci_low")));
      assert.ok(lows.length > 20);
      for (const [k, v] of lows) assert.ok(v === null || (v as number) >= 0, `${k} = ${v}`);
      assert.equal(json.find((e) => e.model_key === "org/cold-start@q4_0")!.ttft_ms_ci_low, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const Q4 = "qwen/qwen3-4b q4_k_m";
const Q8 = "qwen/qwen3-4b q8_0";
const GEMMA = "google/gemma-3-12b q4_k_m";
const LLAMA = "meta/llama-3.2-1b q6_k";

/** Expected table order per ranking (the 1B model has no VRAM figure, so it goes last there). */
const ORDER: Partial<Record<RankBy, string[]>> = {
  speed: [LLAMA, Q4, Q8, GEMMA],
  ttft: [LLAMA, Q4, Q8, GEMMA],
  vram: [Q4, Q8, GEMMA, LLAMA],
};

Deno.test({
  name: "--rank-by changes the order of the PDF's results table",
  ignore: !hasPoppler,
  fn: async () => {
    for (const [rankBy, expected] of Object.entries(ORDER) as [RankBy, string[]][]) {
      const { dir, file } = await pdfOf(rankBy);
      try {
        const text = await pageText(file, 1);
        assert.match(text, new RegExp(`--rank-by ${rankBy}`));
        const rows = text.split("\n").filter((l) => /^\s*\d+\s+\S+\/\S+/.test(l))
          .map((l) => l.trim().split(/\s+/).slice(1, 3).join(" "));
        assert.deepEqual(rows, expected, rankBy);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
  },
});
