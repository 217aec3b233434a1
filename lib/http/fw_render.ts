/**
 * Server rendering of a page into a whole HTML document: the layout wraps the page, and the
 * island boot script is added only when the page contains islands.
 *
 * @module
 */
import { type ComponentChildren, type ComponentType, h } from "preact";
import { renderToString } from "preact-render-to-string";
import { hasIslands } from "./fw_islands.ts";

/** Props of the layout (`routes/_app.tsx`). */
export interface LayoutProps {
  title: string;
  /** Request path (for the active navigation link). */
  path: string;
  styles: string[];
  children: ComponentChildren;
}

/** What {@linkcode renderDocument} needs. */
export interface Document {
  page: ComponentType<Record<string, unknown>>;
  props: Record<string, unknown>;
  title: string;
  path: string;
  layout: ComponentType<LayoutProps>;
  bootScript: string;
  styles: string[];
}

/**
 * Renders `<!DOCTYPE html>` + the layout with the page inside; appends the boot script as a
 * module script at the end of the body when an island was rendered.
 */
export function renderDocument(doc: Document): string {
  const body = renderToString(
    h(doc.layout, {
      title: doc.title,
      path: doc.path,
      styles: doc.styles,
      children: h(doc.page, doc.props),
    }),
  );
  const script = hasIslands(body) ? `<script type="module" src="${doc.bootScript}"></script>` : "";
  const html = script ? body.replace(/<\/body>(?![\s\S]*<\/body>)/, `${script}</body>`) : body;
  return `<!DOCTYPE html>${html}`;
}
