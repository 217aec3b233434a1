/**
 * Server-side rendering of a whole page: a Preact tree into an HTML document that loads the
 * stylesheets and the bundles of the islands it uses.
 *
 * @module
 */
import { h, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { ISLANDS_PREFIX } from "./islands.ts";

/** Options of {@linkcode renderPage}. */
export interface PageOptions {
  title: string;
  /** Islands used on the page (their bundles are loaded). @default [] */
  islands?: string[];
  /** Stylesheet URLs. @default [] */
  styles?: string[];
  /** Extra module scripts (URLs). @default [] */
  scripts?: string[];
}

/**
 * Renders a page to an HTML document.
 *
 * @example
 * ```ts
 * import { h } from "preact";
 * import { renderPage } from "./page.ts";
 * const html = renderPage(h("p", null, "hi"), { title: "T", islands: ["A"] });
 * console.assert(html.startsWith("<!DOCTYPE html>") && html.includes('src="/_islands/A.js"'));
 * ```
 */
export function renderPage<P>(body: VNode<P>, options: PageOptions): string {
  const head = [
    h("meta", { charset: "utf-8" }),
    h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
    h("title", null, options.title),
    ...(options.styles ?? []).map((href) => h("link", { rel: "stylesheet", href })),
  ];
  const scripts = [
    ...(options.islands ?? []).map((name) => `${ISLANDS_PREFIX}/${name}.js`),
    ...(options.scripts ?? []),
  ].map((src) => h("script", { type: "module", src }));
  return "<!DOCTYPE html>" +
    renderToString(
      h("html", { lang: "en" }, h("head", null, ...head), h("body", null, body, ...scripts)),
    );
}
