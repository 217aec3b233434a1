/**
 * Benchmark: the form with every parameter and presets, the controls and the live view.
 *
 * @module
 */
import BenchmarkPanel, { type BenchmarkPanelProps } from "../islands/BenchmarkPanel.tsx";
import { webFlags } from "../lib/control/args.ts";
import { presetList } from "../lib/control/presets.ts";
import { type DashboardServices, define } from "../lib/control/services.ts";
import { page } from "../lib/http/fw/mod.ts";

/** Page metadata. */
export const meta = { title: "Benchmark" };

/** The flag table, the presets and the current status. */
async function panelProps(svc: DashboardServices): Promise<BenchmarkPanelProps> {
  const flags = webFlags().map((f) => ({
    long: f.long,
    key: f.key,
    kind: f.kind,
    category: f.category,
    description: f.description,
    ...(f.value === undefined ? {} : { value: f.value }),
    ...(f.choices ? { choices: [...f.choices] } : {}),
    ...(f.min === undefined ? {} : { min: f.min }),
    ...(f.max === undefined ? {} : { max: f.max }),
    ...(f.fallback === undefined ? {} : { fallback: f.fallback }),
    ...(f.arg === undefined ? {} : { arg: f.arg }),
  }));
  const presets = (await presetList(svc.paths.presetsDir)).map((p) => ({
    name: p.name,
    readonly: p.readonly,
  }));
  return {
    flags,
    presets,
    status: svc.controller.status().status,
    tokenRequired: svc.tokenRequired,
  };
}

/** Loads the panel's flags, presets and status. */
export const handler = define.handlers({
  GET: async (c) => page(await panelProps(c.var.services)),
});

/** The Benchmark view. */
export default define.page<typeof handler>(function Benchmark({ data: d }) {
  return (
    <>
      <h1>Benchmark</h1>
      <BenchmarkPanel {...d} />
    </>
  );
});
