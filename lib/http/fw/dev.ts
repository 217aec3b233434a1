/**
 * Development rebuilds (`deno task webapp -- --dev`, `deno task dev`): the build runs once,
 * then again whenever a source file of the pages changes (routes, islands, plugins, components,
 * the browser-side `lib/shared/`), so a reload shows the change. Loaded only with `--dev`: the
 * servers never load esbuild otherwise.
 *
 * @module
 */
import { join } from "node:path";
import { buildProject, type ProjectBuildResult } from "./build.ts";

/** The folders watched, from the project root (those that exist). */
export const WATCHED = ["routes", "islands", "plugins", "components", "lib/shared"];

/** Options of {@linkcode watchProject}. */
export interface WatchOptions {
  /** The static folder receiving `_islands/`. @default `<root>/static` */
  staticDir?: string;
  /** Quiet time after a change before rebuilding, in ms. @default 100 */
  debounceMs?: number;
  /** Called after each build. */
  onBuild?(result: ProjectBuildResult): void;
  /** Called when a build fails (the watch goes on). */
  onError?(err: unknown): void;
}

/** A running watch. */
export interface ProjectWatch {
  /** Builds done so far (the first one included). */
  readonly builds: number;
  /** Stops watching; resolves once a build under way has finished writing. */
  close(): Promise<void>;
}

const SOURCE = /\.(tsx?|jsx?|css)$/;

/** Builds `root`, then rebuilds it on every change of its page sources until closed. */
export async function watchProject(
  root: string,
  options: WatchOptions = {},
): Promise<ProjectWatch> {
  const staticDir = options.staticDir ?? join(root, "static");
  const islandsDir = join(staticDir, "_islands");
  let builds = 0;
  let running: Promise<void> = Promise.resolve();
  const build = () => {
    running = running.then(async () => {
      try {
        const result = await buildProject(root, { staticDir });
        builds++;
        options.onBuild?.(result);
      } catch (err) {
        options.onError?.(err);
      }
    });
    return running;
  };
  await build();
  const dirs: string[] = [];
  for (const d of WATCHED) {
    try {
      if ((await Deno.stat(join(root, d))).isDirectory) dirs.push(join(root, d));
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  const watcher = Deno.watchFs(dirs, { recursive: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  (async () => {
    for await (const event of watcher) {
      const sources = event.paths.filter((p) => SOURCE.test(p) && !p.startsWith(islandsDir));
      if (sources.length === 0) continue;
      clearTimeout(timer);
      timer = setTimeout(build, options.debounceMs ?? 100);
    }
  })().catch((err) => options.onError?.(err));
  return {
    get builds() {
      return builds;
    },
    async close() {
      clearTimeout(timer);
      watcher.close();
      await running;
    },
  };
}
