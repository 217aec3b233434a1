/**
 * Server rendering of a page into a whole HTML document: the page inside its folders' layouts
 * (outermost first) inside the app shell (`routes/_app.tsx`); the island boot script is added
 * only when the page contains islands.
 *
 * @module
 */
import { h, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { hasIslands } from "./islands.ts";
import type { AnyComponent, AppProps, PageProps } from "./types.ts";

/** What {@linkcode renderDocument} needs. */
export interface Document {
  /** The content: a page or an error page, with its props. */
  page: AnyComponent;
  props: PageProps<unknown, object> | Record<string, unknown>;
  /** Layouts wrapping the page, outermost first. @default [] */
  layouts?: AnyComponent[];
  /** The document shell; a bare `<html><body>` when absent. */
  app?: AnyComponent | null;
  title: string;
  url: URL;
  state: object;
  /** URL of the island boot script. */
  bootScript: string;
}

/** The shell used when the project has no `routes/_app.tsx`. */
function BareApp(props: AppProps) {
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("meta", { charset: "utf-8" }), h("title", null, props.title)),
    h("body", null, h(props.Component, null)),
  );
}

/**
 * Renders `<!DOCTYPE html>` + the shell with the layouts and the page inside; appends the boot
 * script as a module script at the end of the body when an island was rendered.
 *
 * @example
 * ```ts
 * import { h } from "preact";
 * import { renderDocument } from "./render.ts";
 * const html = renderDocument({
 *   page: () => h("p", null, "hi"),
 *   props: {},
 *   title: "Hi",
 *   url: new URL("http://localhost/"),
 *   state: {},
 *   bootScript: "/_islands/boot.js",
 * });
 * if (!html.startsWith("<!DOCTYPE html><html")) throw new Error(html);
 * ```
 */
export function renderDocument(doc: Document): string {
  const props = doc.props as Record<string, unknown>;
  let inner: () => VNode | null = () => h(doc.page, props);
  for (const layout of [...(doc.layouts ?? [])].reverse()) {
    const wrapped = inner;
    inner = () => h(layout, { ...props, Component: wrapped });
  }
  const App: AnyComponent = doc.app ?? BareApp;
  const body = renderToString(
    h(App, { title: doc.title, url: doc.url, state: doc.state, Component: inner }),
  );
  const script = hasIslands(body) ? `<script type="module" src="${doc.bootScript}"></script>` : "";
  const html = script ? body.replace(/<\/body>(?![\s\S]*<\/body>)/, `${script}</body>`) : body;
  return `<!DOCTYPE html>${html}`;
}
