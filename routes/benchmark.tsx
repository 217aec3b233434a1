/**
 * Benchmark: the controls and the live view, then the form — grouped sections with human labels,
 * the flag as a hint and the server's effective defaults as placeholders — and the presets; with
 * a fleet (a PostgreSQL store), the machine picker and the fleet's agents.
 *
 * @module
 */
import BenchmarkPanel, { type BenchmarkPanelProps } from "../islands/BenchmarkPanel.tsx";
import { formSections } from "../lib/dashboard/form_schema.ts";
import { presetList } from "../lib/dashboard/presets.ts";
import { type DashboardServices, define } from "../lib/dashboard/services.ts";
import { messageOf } from "../lib/error.ts";
import { fleetAnswer } from "../lib/fleet/mod.ts";
import { page } from "../lib/http/mod.ts";

/** Page metadata. */
export const meta = { title: "Benchmark" };

/** The form, the presets and the current status. */
async function panelProps(svc: DashboardServices): Promise<BenchmarkPanelProps> {
  const presets = (await presetList(svc.paths.presetsDir)).map((p) => ({
    name: p.name,
    readonly: p.readonly,
  }));
  return {
    sections: formSections(await svc.controller.defaults()),
    presets,
    status: svc.controller.status().status,
    tokenRequired: svc.tokenRequired,
    // The page still serves this machine when the fleet's database does not answer.
    fleet: await fleetAnswer(svc.fleet).catch((err) => ({
      available: true,
      reason: `The fleet could not be listed: ${messageOf(err)}`,
      agents: [],
    })),
  };
}

/** Loads the panel's form, presets and status. */
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
