/**
 * Islands, Fresh-shaped: the server renders a component inside a marker element carrying its
 * props; esbuild bundles one browser entry per island that hydrates every marker of its name.
 *
 * @module
 */
import { join, relative } from "node:path";
import { type ComponentType, h, type VNode } from "preact";

/** One island: a name and the module whose default export is the component. */
export interface IslandEntry {
  name: string;
  /** Absolute path of the island module. */
  path: string;
}

/** Options of {@linkcode buildIslands}. */
export interface BuildIslandsOptions {
  /** Where bundles go (`<name>.js` plus shared chunks). */
  outDir: string;
  /** The project root holding `node_modules`. */
  root: string;
  /** Minify the bundles. @default true */
  minify?: boolean;
}

/** The URL prefix the bundles are served under. */
export const ISLANDS_PREFIX = "/_islands";

function entrySource(island: IslandEntry, stubDir: string): string {
  const from = relative(stubDir, island.path).split("\\").join("/");
  const spec = from.startsWith(".") ? from : `./${from}`;
  return `import { h, hydrate } from "preact";
import Island from ${JSON.stringify(spec)};
for (const el of document.querySelectorAll('[data-island="${island.name}"]')) {
  hydrate(h(Island, JSON.parse(el.getAttribute("data-props") || "{}")), el);
}
`;
}

/**
 * Bundles every island with esbuild (ES modules, shared chunks) into `outDir`. Needs
 * permission to run esbuild's binary: call it from a build step or launcher, not from the
 * permission-scoped server.
 */
export async function buildIslands(
  islands: IslandEntry[],
  options: BuildIslandsOptions,
): Promise<void> {
  const esbuild = await import("esbuild");
  const stubDir = join(options.outDir, ".entries");
  await Deno.mkdir(stubDir, { recursive: true });
  const entryPoints: Record<string, string> = {};
  for (const island of islands) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(island.name)) {
      throw new TypeError(`Cannot build island '${island.name}': use letters, digits and _`);
    }
    const stub = join(stubDir, `${island.name}.js`);
    await Deno.writeTextFile(stub, entrySource(island, stubDir));
    entryPoints[island.name] = stub;
  }
  try {
    await esbuild.build({
      entryPoints,
      outdir: options.outDir,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["es2022"],
      jsx: "automatic",
      jsxImportSource: "preact",
      minify: options.minify ?? true,
      nodePaths: [join(options.root, "node_modules")],
      logLevel: "silent",
    });
  } finally {
    await esbuild.stop();
    await Deno.remove(stubDir, { recursive: true }).catch(() => {});
  }
}

/** Props of {@linkcode island}. */
export interface IslandMarker<P> {
  /** The island's name (its bundle is `/_islands/<name>.js`). */
  name: string;
  component: ComponentType<P>;
  /** JSON-serialisable props. */
  props: NoInfer<P>;
}

/**
 * Renders a component inside its hydration marker.
 *
 * @example
 * ```ts
 * import { renderToString } from "preact-render-to-string";
 * import { h } from "preact";
 * import { island } from "./islands.ts";
 * const Hello = (p: { who: string }) => h("b", null, p.who);
 * const html = renderToString(island({ name: "Hello", component: Hello, props: { who: "x" } }));
 * console.assert(html.includes('data-island="Hello"') && html.includes("<b>x</b>"));
 * ```
 */
export function island<P>(marker: IslandMarker<P>): VNode {
  const inner = h(
    marker.component as ComponentType<Record<string, unknown>>,
    marker.props as Record<string, unknown>,
  );
  return h("div", {
    "data-island": marker.name,
    "data-props": JSON.stringify(marker.props),
    style: "display:contents",
  } as Record<string, unknown>, inner) as VNode;
}
