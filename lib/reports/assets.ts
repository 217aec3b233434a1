/**
 * Files the reports embed: the DejaVu TrueType fonts (npm `dejavu-fonts-ttf`, so the PDF and the
 * chart images render every character without system fonts or pdfkit's Helvetica AFM files) and
 * chart.js's browser build (inlined into the HTML report). They are looked for in `assets/` beside
 * the running program first (`deno task bundle` puts copies in `dist/assets/`, so a copied `dist/`
 * writes every report), then in the project's node_modules, then (fonts) in Debian's folder.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SetupError } from "../error.ts";

const FONT_DIRS = [
  "dejavu-fonts-ttf/ttf",
];
const SYSTEM_FONT_DIR = "/usr/share/fonts/truetype/dejavu";

/** Files a bundle carries beside it: `dist/assets/` when this module is inside `dist/bench.js`. */
export const BUNDLE_ASSETS_DIR = "assets";

function bundledAssetsDir(): string[] {
  try {
    return [fileURLToPath(new URL(`./${BUNDLE_ASSETS_DIR}`, import.meta.url))];
  } catch {
    return []; // not a file: URL
  }
}

function nodeModulesDirs(): string[] {
  const dirs = [join(Deno.cwd(), "node_modules")];
  try {
    dirs.unshift(fileURLToPath(new URL("../../node_modules", import.meta.url)));
  } catch {
    // not a file: URL (bundled or remote); the working directory is the only candidate
  }
  return dirs;
}

function firstExisting(candidates: string[]): string | null {
  for (const c of candidates) {
    try {
      if (Deno.statSync(c).isFile) return c;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/** Paths of the regular and bold report fonts. */
export interface ReportFonts {
  regular: string;
  bold: string;
}

/** Finds the DejaVu Sans fonts (npm package first, then the Debian system folder). */
export function findFonts(): ReportFonts {
  const dirs = [
    ...bundledAssetsDir(),
    ...nodeModulesDirs().flatMap((nm) => FONT_DIRS.map((d) => join(nm, d))),
    SYSTEM_FONT_DIR,
  ];
  const regular = firstExisting(dirs.map((d) => join(d, "DejaVuSans.ttf")));
  const bold = firstExisting(dirs.map((d) => join(d, "DejaVuSans-Bold.ttf")));
  if (!regular || !bold) {
    throw new SetupError(
      "Cannot find the report fonts (DejaVuSans.ttf): they are neither in assets/ beside the " +
        "program, nor in node_modules/dejavu-fonts-ttf, nor in /usr/share/fonts/truetype/dejavu: " +
        "run 'npm ci' in the project, or bundle again with 'deno task bundle'",
      { code: "assets_missing" },
    );
  }
  return { regular, bold };
}

let chartJsSource: string | null = null;

/** The text of chart.js's minified browser (UMD) build. */
export async function chartJsBrowserSource(): Promise<string> {
  if (chartJsSource !== null) return chartJsSource;
  const file = firstExisting([
    ...bundledAssetsDir().map((d) => join(d, "chart.umd.min.js")),
    ...nodeModulesDirs().map((nm) => join(nm, "chart.js/dist/chart.umd.min.js")),
  ]);
  if (!file) {
    throw new SetupError(
      "Cannot find chart.js's browser build (chart.umd.min.js): it is neither in assets/ beside " +
        "the program nor in node_modules/chart.js: run 'npm ci' in the project, or bundle again " +
        "with 'deno task bundle'",
      { code: "assets_missing" },
    );
  }
  chartJsSource = await Deno.readTextFile(file);
  return chartJsSource;
}
