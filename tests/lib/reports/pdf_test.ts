import assert from "node:assert/strict";
import { join } from "node:path";
import { type RankBy, renderPdf } from "../../../lib/reports/mod.ts";
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

Deno.test({
  name: "the PDF has the expected pages, the model names and the numbers, and renders to PNG",
  ignore: !hasPoppler,
  fn: async () => {
    const { dir, file } = await pdfOf("speed");
    try {
      const info = await run("pdfinfo", [file]);
      const pages = Number(/Pages:\s+(\d+)/.exec(info)![1]);
      assert.ok(pages >= 4 && pages <= 6, `pages: ${pages}`);
      const fonts = await run("pdffonts", [file]);
      assert.match(fonts, /DejaVuSans/);
      assert.doesNotMatch(fonts, /Helvetica/);
      const p1 = await pageText(file, 1);
      for (const s of ["localbench benchmark report", "Summary", "Parameters", "0.35", "4096"]) {
        assert.ok(p1.includes(s), `page 1 lacks '${s}'`);
      }
      const p2 = await pageText(file, 2);
      assert.match(p2, /Detailed results/);
      for (
        const s of ["qwen/qwen3-4b", "google/gemma-3-12b", "meta/llama-3.2-1b", "51.4", "96.4"]
      ) {
        assert.ok(p2.includes(s), `page 2 lacks '${s}'`);
      }
      // The charts are vector graphics: their titles, axis titles and labels are text.
      const p3 = await pageText(file, 3);
      for (
        const s of [
          "Charts",
          "Top 10 by speed",
          "Speed vs. model size",
          "Efficiency: tokens/s per GB of model",
          "Model size (GB)",
          "Tokens/s per GB",
          "llama-3.2-1b @q6_k",
          "gemma-3-12b @q4_k_m",
        ]
      ) {
        assert.ok(p3.includes(s), `the charts page lacks '${s}'`);
      }
      const all = await run("pdftotext", [file, "-"]);
      for (
        const s of [
          "Statistics per model",
          "95% CI",
          "Latency distributions (ms)",
          "TPOT",
          "Best per quantization",
          "Recommendations",
          "Hardware profiling",
          "System",
        ]
      ) {
        assert.ok(all.includes(s), `the PDF lacks '${s}'`);
      }
      await run("pdftoppm", ["-r", "40", "-png", file, join(dir, "page")]);
      const pngs = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".png"));
      assert.equal(pngs.length, pages);
      for (const p of pngs) assert.ok(Deno.statSync(join(dir, p.name)).size > 3000);
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
  name: "--rank-by changes the order of the PDF's detailed table",
  ignore: !hasPoppler,
  fn: async () => {
    for (const [rankBy, expected] of Object.entries(ORDER) as [RankBy, string[]][]) {
      const { dir, file } = await pdfOf(rankBy);
      try {
        const text = await pageText(file, 2);
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
