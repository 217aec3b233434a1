/**
 * Island markers of the file-routed dashboard: a component registered as an island is wrapped
 * in `<x-island data-island="Name" data-props="{...}">` whenever it is rendered (a Preact
 * `options.vnode` hook), so pages use islands as ordinary components and the boot script
 * hydrates them with the same props. Props must be JSON-serialisable.
 *
 * @module
 */
import { type ComponentType, h, options, type VNode } from "preact";

const registry = new Map<unknown, string>();
const WRAPPED = "__island";

/** The tag that marks an island in the server's HTML. */
export const ISLAND_TAG = "x-island";

/**
 * Registers island components by name (the bundle's entry name, e.g. `Chart`).
 *
 * @example
 * ```ts
 * import { registerIslands } from "./fw_islands.ts";
 * function Counter(props: { start: number }) { return props.start; }
 * registerIslands({ Counter });
 * ```
 */
export function registerIslands(islands: Readonly<Record<string, ComponentType<never>>>): void {
  for (const [name, component] of Object.entries(islands)) {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
      throw new TypeError(`Cannot register island '${name}': use a PascalCase name`);
    }
    registry.set(component, name);
  }
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
