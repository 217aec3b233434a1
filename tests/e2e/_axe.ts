/**
 * Accessibility checks for the browser tests: axe-core (npm) injected into a page that
 * playwright-core drives, and the looks every page is checked and photographed in (desktop
 * 1440×900 and mobile 390×844, light and dark).
 *
 * axe's source is evaluated through the DevTools protocol, which the page's CSP (no inline or
 * eval'd script) does not govern, so the page is tested exactly as served.
 *
 * ```ts ignore
 * await forEachLook(page, async (look) => {
 *   await page.goto(url);
 *   await expectAccessible(page, `home ${look.name}`);
 *   await page.screenshot({ path: shotPath("home", look), fullPage: true });
 * });
 * ```
 *
 * @module
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { REPO_ROOT } from "../_helpers.ts";

/** One node axe flagged. */
export interface AxeNode {
  target: string[];
  html: string;
  failureSummary?: string;
}

/** One rule axe found broken. */
export interface AxeViolation {
  id: string;
  impact: "minor" | "moderate" | "serious" | "critical" | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/** Options of {@linkcode axeViolations}. */
export interface AxeOptions {
  /** The impacts reported. @default ["serious", "critical"] */
  impacts?: AxeViolation["impact"][];
  /** CSS selectors left out of the check (e.g. a third-party widget). @default [] */
  exclude?: string[];
  /** Rule ids switched off, each with the reason in a comment at the call. @default [] */
  disableRules?: string[];
}

/** The WCAG 2.x A/AA rules and axe's best practices. */
export const AXE_TAGS = [
  "wcag2a",
  "wcag2aa",
  "wcag21a",
  "wcag21aa",
  "wcag22aa",
  "best-practice",
];

let source: Promise<string> | null = null;

/** axe-core's browser bundle (read once). */
export function axeSource(): Promise<string> {
  source ??= Deno.readTextFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"));
  return source;
}

/** Runs axe on the page as it is now; returns the violations of the given impacts. */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<AxeViolation[]> {
  const impacts = options.impacts ?? ["serious", "critical"];
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(await axeSource());
  const found = await page.evaluate(async (o) => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const context = o.exclude.length ? { exclude: o.exclude.map((s) => [s]) } : document;
    const rules = Object.fromEntries(o.disableRules.map((id) => [id, { enabled: false }]));
    const r = await axe.run(context, {
      runOnly: { type: "tag", values: o.tags },
      rules,
      resultTypes: ["violations"],
    });
    // deno-lint-ignore no-explicit-any
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      // deno-lint-ignore no-explicit-any
      nodes: v.nodes.map((n: any) => ({
        target: n.target,
        html: n.html,
        failureSummary: n.failureSummary,
      })),
    }));
  }, { tags: AXE_TAGS, exclude: options.exclude ?? [], disableRules: options.disableRules ?? [] });
  return (found as AxeViolation[]).filter((v) => impacts.includes(v.impact));
}

/** The violations as readable lines (rule, impact, help, then each node and why). */
export function describeViolations(violations: AxeViolation[]): string {
  return violations.map((v) =>
    `${v.id} (${v.impact}): ${v.help}\n` +
    v.nodes.slice(0, 8).map((n) =>
      `  - ${n.target.join(" ")}: ${n.html.slice(0, 160)}\n    ${
        (n.failureSummary ?? "").replace(/\n/g, "\n    ")
      }`
    ).join("\n")
  ).join("\n");
}

/**
 * Fails with every serious or critical violation (by default) on the page, named by `where`.
 *
 * @throws {Error} listing the violations.
 */
export async function expectAccessible(
  page: Page,
  where: string,
  options: AxeOptions = {},
): Promise<void> {
  const violations = await axeViolations(page, options);
  if (violations.length > 0) {
    throw new Error(
      `axe: ${violations.length} violation(s) on ${where}:\n` +
        describeViolations(violations),
    );
  }
}

/** A viewport and a colour scheme. */
export interface Look {
  /** `desktop-light`, `mobile-dark`... */
  name: string;
  viewport: { width: number; height: number };
  scheme: "light" | "dark";
}

/** The viewports of the screenshots. */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 390, height: 844 },
} as const;

/** Every viewport in both themes. */
export const LOOKS: Look[] = (["desktop", "mobile"] as const).flatMap((v) =>
  (["light", "dark"] as const).map((scheme) => ({
    name: `${v}-${scheme}`,
    viewport: VIEWPORTS[v],
    scheme,
  }))
);

/** Sets the page's viewport and colour scheme to `look`. */
export async function applyLook(page: Page, look: Look): Promise<void> {
  await page.setViewportSize(look.viewport);
  await page.emulateMedia({ colorScheme: look.scheme });
}

/** Runs `fn` once per look (in {@linkcode LOOKS}' order), the page set to it first. */
export async function forEachLook(
  page: Page,
  fn: (look: Look) => Promise<void>,
  looks: Look[] = LOOKS,
): Promise<void> {
  for (const look of looks) {
    await applyLook(page, look);
    await fn(look);
  }
}

/** Where the browser tests' screenshots go (`test-artifacts/`, not committed). */
export const ARTIFACTS = join(REPO_ROOT, "test-artifacts");

/** The path of a screenshot: `test-artifacts/<name>_<look>.png` (the folder is created). */
export function shotPath(name: string, look: Look): string {
  Deno.mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, `${name}_${look.name}.png`);
}
