/**
 * The route tree: the manifest's route files seen through the folders mounted on it. The
 * project's `routes/` is the root; another folder (a plugin's `plugins/<id>/routes/`) is mounted
 * at a place in the tree (`routes/plugins/<id>`), so it serves below that URL and inherits the
 * `_layout` and `_middleware` files of the folders above it. Special files are looked up by name
 * in each folder of a route's chain.
 *
 * @module
 */
import { folderChain, type SpecialName } from "./segments.ts";
import type { AnyMiddleware, Manifest, RouteModule } from "./types.ts";

/** The root folder of the tree. */
export const TREE_ROOT = "routes";

/** A folder of route files mounted in the tree. */
export interface RouteFolder {
  /** The folder, as the manifest names it (`routes`, `plugins/logmonitor/routes`). */
  dir: string;
  /** Where it sits in the tree. @default dir */
  at?: string;
  /** Which of its route files to serve (by manifest path). @default every one */
  include?(file: string): boolean;
  /** Middlewares run for its routes after those of the folders above `at`. */
  middleware?: AnyMiddleware[];
}

/** A route file placed in the tree. */
export interface PlacedRoute {
  /** The manifest path of the file. */
  file: string;
  /** Its path in the tree (`routes/plugins/logmonitor/index.tsx`). */
  place: string;
  module: RouteModule;
  folder: RouteFolder;
}

/** Lookups of special files along the tree. */
export class RouteTree {
  readonly #manifest: Manifest;
  readonly #folders: RouteFolder[];

  constructor(manifest: Manifest, folders: RouteFolder[]) {
    this.#manifest = manifest;
    this.#folders = folders;
  }

  /** The special file `name` of tree folder `place` (a mounted folder's own file first). */
  special(place: string, name: SpecialName): RouteModule | undefined {
    const reals = [place];
    for (const f of this.#folders) {
      const at = f.at ?? f.dir;
      if (at !== f.dir && (place === at || place.startsWith(`${at}/`))) {
        reals.unshift(f.dir + place.slice(at.length));
      }
    }
    for (const real of reals) {
      for (const ext of [".tsx", ".ts"]) {
        const mod = this.#manifest.routes[`${real}/${name}${ext}`];
        if (mod) return mod;
      }
    }
    return undefined;
  }

  /** The tree folders from the root down to `place`'s folder. */
  chain(place: string): string[] {
    return folderChain(TREE_ROOT, place);
  }

  /** The layouts of a route, outermost first (a `skipInheritedLayouts` one drops the outer). */
  layouts(place: string): RouteModule[] {
    let out: RouteModule[] = [];
    for (const folder of this.chain(place)) {
      const layout = this.special(folder, "_layout");
      if (!layout) continue;
      out = layout.config?.skipInheritedLayouts ? [layout] : [...out, layout];
    }
    return out;
  }

  /** The middlewares of a route: each folder's `_middleware`, the mount's own at its place. */
  middlewares(route: PlacedRoute): AnyMiddleware[] {
    const out: AnyMiddleware[] = [];
    const at = route.folder.at ?? route.folder.dir;
    for (const folder of this.chain(route.place)) {
      if (folder === at) out.push(...(route.folder.middleware ?? []));
      const mod = this.special(folder, "_middleware");
      const fns = mod?.default;
      if (fns !== undefined) out.push(...(Array.isArray(fns) ? fns : [fns as AnyMiddleware]));
    }
    return out;
  }

  /** Every route file of the mounted folders, placed in the tree. */
  routes(isRoute: (rel: string) => boolean): PlacedRoute[] {
    const out: PlacedRoute[] = [];
    for (const folder of this.#folders) {
      const at = folder.at ?? folder.dir;
      for (const [file, module] of Object.entries(this.#manifest.routes)) {
        if (!file.startsWith(`${folder.dir}/`)) continue;
        const rel = file.slice(folder.dir.length + 1);
        if (!isRoute(rel) || (folder.include && !folder.include(file))) continue;
        out.push({ file, place: `${at}/${rel}`, module, folder });
      }
    }
    return out;
  }
}
