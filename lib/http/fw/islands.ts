/**
 * Island markers of the file-routed dashboard: a component registered as an island is wrapped
 * in `<x-island data-island="Name" data-props="{...}">` whenever it is rendered (a Preact
 * `options.vnode` hook), so pages use islands as ordinary components and the boot script
 * hydrates them with the same props. Props must be JSON-serialisable.
 *
 * @module
 */
import { h, options, type VNode } from "preact";
import type { AnyComponent } from "./types.ts";

const registry = new Map<unknown, string>();
const byName = new Map<string, AnyComponent>();
const WRAPPED = "__island";

/** The tag that marks an island in the server's HTML. */
export const ISLAND_TAG = "x-island";

/** An island's name: PascalCase, a plugin's prefixed with its id (`Chart`, `temp_eta/Panel`). */
export const ISLAND_NAME = /^(?:[a-z][a-z0-9_]*\/)?[A-Z][A-Za-z0-9]*$/;

/**
 * Registers island components by name (the bundle's entry name, e.g. `Chart`).
 *
 * @example
 * ```ts
 * import { registerIslands } from "./islands.ts";
 * function Counter(props: { start: number }) { return props.start; }
 * registerIslands({ Counter });
 * ```
 */
export function registerIslands(islands: Readonly<Record<string, AnyComponent>>): void {
  for (const [name, component] of Object.entries(islands)) {
    if (!ISLAND_NAME.test(name)) {
      throw new TypeError(`Cannot register island '${name}': use a PascalCase name`);
    }
    registry.set(component, name);
    byName.set(name, component);
  }
}

/** The registered island of a name (to render an island a configuration names). */
export function islandComponent(name: string): AnyComponent | undefined {
  return byName.get(name);
}

/**
 * The island components of a manifest by name ({@linkcode islandName}), which names the bundle
 * (`/_islands/Chart.js`, `/_islands/temp_eta/Panel.js`).
 *
 * @example
 * ```ts
 * import { islandsByName } from "./islands.ts";
 * const Chart = () => null;
 * const named = islandsByName({ "islands/Chart.tsx": { default: Chart } });
 * if (named.Chart !== Chart) throw new Error("not found by name");
 * ```
 */
export function islandsByName(
  islands: Readonly<Record<string, { default: AnyComponent }>>,
): Record<string, AnyComponent> {
  const out: Record<string, AnyComponent> = {};
  for (const [file, mod] of Object.entries(islands)) {
    const name = islandName(file);
    if (name in out) throw new TypeError(`Cannot use island '${file}': '${name}' exists twice`);
    out[name] = mod.default;
  }
  return out;
}

/**
 * The island name of a file: its name without folder and extension (`islands/Chart.tsx` →
 * `Chart`), a plugin's prefixed with the plugin's id (`plugins/temp_eta/islands/Panel.tsx` →
 * `temp_eta/Panel`), so two plugins may have islands of the same file name.
 */
export function islandName(file: string): string {
  const plugin = /^plugins\/([^/]+)\/islands\//.exec(file)?.[1];
  const name = file.slice(file.lastIndexOf("/") + 1).replace(/\.(tsx?|jsx?)$/, "");
  return plugin ? `${plugin}/${name}` : name;
}

/** The names of the registered islands. */
export function islandNames(): string[] {
  return [...new Set(registry.values())].sort();
}

/** Whether rendered HTML contains at least one island (so the boot script is needed). */
export function hasIslands(html: string): boolean {
  return html.includes(`<${ISLAND_TAG} `);
}

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  const name = registry.get(vnode.type);
  const props = vnode.props as Record<string, unknown>;
  if (name !== undefined && props && !props[WRAPPED]) {
    const { children: _children, ...data } = props;
    const inner = h(vnode.type as never, { ...props, [WRAPPED]: true });
    (vnode as { type: unknown }).type = ISLAND_TAG;
    (vnode as { props: unknown }).props = {
      "data-island": name,
      "data-props": JSON.stringify(data),
      children: inner,
    };
  }
  previous?.(vnode);
};
