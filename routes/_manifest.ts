/**
 * The dashboard's routes and islands, imported statically (Fresh's `fresh.gen.ts`), so the web
 * app can be bundled. `tests/routes/manifest_test.ts` checks that it lists every route file.
 * The island build list of the whole web app (these islands and the host pages') is
 * `routes/_islands.ts`.
 * Keys are paths from the project root; `[...name]` matches the rest of the path, `/` included.
 *
 * @module
 */
import type { DashboardEnv } from "../lib/control/services.ts";
import type { Manifest, RouteModule } from "../lib/http/fw.ts";
import * as $index from "./index.tsx";
import * as $benchmark from "./benchmark.tsx";
import * as $results from "./results.tsx";
import * as $comparison from "./comparison.tsx";
import * as $api_status from "./api/status.ts";
import * as $api_benchmark_start from "./api/benchmark/start.ts";
import * as $api_benchmark_pause from "./api/benchmark/pause.ts";
import * as $api_benchmark_resume from "./api/benchmark/resume.ts";
import * as $api_benchmark_stop from "./api/benchmark/stop.ts";
import * as $api_benchmark_events from "./api/benchmark/events.ts";
import * as $api_system_shutdown from "./api/system/shutdown.ts";
import * as $api_results from "./api/results.ts";
import * as $api_dashboard_stats from "./api/dashboard/stats.ts";
import * as $api_comparison_index from "./api/comparison/index.ts";
import * as $api_comparison_name from "./api/comparison/[...name].ts";
import * as $api_presets_index from "./api/presets/index.ts";
import * as $api_presets_name from "./api/presets/[name].ts";
import * as $api_cache_clear from "./api/cache/clear.ts";
import * as $api_cache_key from "./api/cache/[...key].ts";
import Chart from "../islands/Chart.tsx";
import BenchmarkPanel from "../islands/BenchmarkPanel.tsx";
import ResultsBrowser from "../islands/ResultsBrowser.tsx";

type Mod = RouteModule<DashboardEnv>;

/** Every route and island of the dashboard. */
export const manifest: Manifest<DashboardEnv> = {
  routes: {
    "./routes/index.tsx": $index as Mod,
    "./routes/benchmark.tsx": $benchmark as Mod,
    "./routes/results.tsx": $results as Mod,
    "./routes/comparison.tsx": $comparison as Mod,
    "./routes/api/status.ts": $api_status as Mod,
    "./routes/api/benchmark/start.ts": $api_benchmark_start as Mod,
    "./routes/api/benchmark/pause.ts": $api_benchmark_pause as Mod,
    "./routes/api/benchmark/resume.ts": $api_benchmark_resume as Mod,
    "./routes/api/benchmark/stop.ts": $api_benchmark_stop as Mod,
    "./routes/api/benchmark/events.ts": $api_benchmark_events as Mod,
    "./routes/api/system/shutdown.ts": $api_system_shutdown as Mod,
    "./routes/api/results.ts": $api_results as Mod,
    "./routes/api/dashboard/stats.ts": $api_dashboard_stats as Mod,
    "./routes/api/comparison/index.ts": $api_comparison_index as Mod,
    "./routes/api/comparison/[...name].ts": $api_comparison_name as Mod,
    "./routes/api/presets/index.ts": $api_presets_index as Mod,
    "./routes/api/presets/[name].ts": $api_presets_name as Mod,
    "./routes/api/cache/clear.ts": $api_cache_clear as Mod,
    "./routes/api/cache/[...key].ts": $api_cache_key as Mod,
  },
  islands: { Chart, BenchmarkPanel, ResultsBrowser },
};
