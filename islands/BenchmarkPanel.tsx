/**
 * Island: the Benchmark view. Start / pause / resume / stop with the progress, the live output
 * and charts right below (in sight after Start), then every parameter and presets (load, save,
 * delete). The form is signals (`bench_form.ts`); the live
 * state is the page's shared signal fed by the event stream (`bench_events.ts`), shown as the
 * server's status until the stream is followed. With a fleet (a PostgreSQL store), a machine
 * picker sends Start to an agent, whose job the live view then follows, and the fleet view lists
 * the agents (`fleet_events.ts`).
 *
 * @module
 */
import { useComputed, useSignal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { benchLive, followBenchEvents } from "../components/bench_events.ts";
import { BenchControls } from "../components/BenchControls.tsx";
import { createBenchForm, type PresetItem } from "../components/bench_form.ts";
import BenchForm from "../components/BenchForm.tsx";
import type { FormSection } from "../lib/shared/form_fields.ts";
import { initialLive } from "../components/live_state.ts";
import { LiveView } from "../components/LiveView.tsx";
import { PresetBar } from "../components/PresetBar.tsx";
import {
  agentLiveState,
  fleetAt,
  fleetList,
  followAgent,
  followFleet,
} from "../components/fleet_events.ts";
import { type FleetList, machineChoices } from "../components/fleet_state.ts";
import { FleetView } from "../components/FleetView.tsx";
import { MachinePicker } from "../components/MachinePicker.tsx";

/** Props of the panel. */
export interface BenchmarkPanelProps {
  sections: FormSection[];
  presets: PresetItem[];
  status: string;
  tokenRequired: boolean;
  /** The fleet as `GET /api/fleet` said at page load. */
  fleet: FleetList;
}

/** The Benchmark view's interactive part. */
export default function BenchmarkPanel(props: BenchmarkPanelProps) {
  const form = useMemo(
    () => createBenchForm(props.sections.flatMap((s) => s.fields), props.presets),
    [],
  );
  const following = useSignal(false);
  const machine = form.machine;
  const live = useComputed(() =>
    machine.value
      ? agentLiveState.value
      : following.value
      ? benchLive.value
      : initialLive(props.status)
  );
  useEffect(() => {
    following.value = true;
    const stopFleet = followFleet(props.fleet);
    const stopBench = followBenchEvents(props.status);
    return () => {
      stopFleet();
      stopBench();
    };
  }, []);
  useEffect(() => machine.value ? followAgent(machine.value) : undefined, [machine.value]);
  const fleet = following.value ? fleetList.value : props.fleet;
  const now = following.value ? fleetAt.value : Date.now();
  const agent = fleet.agents.find((a) => a.name === machine.value);
  return (
    <div class="bench">
      <BenchControls
        form={form}
        live={live}
        tokenRequired={props.tokenRequired}
        picker={fleet.available && (
          <MachinePicker choices={machineChoices(fleet, now)} machine={machine} />
        )}
        remote={machine.value !== ""}
        startable={machine.value === "" || agent?.live === true}
      />
      <LiveView live={live} started={form.started.value} />
      <FleetView list={fleet} now={now} />
      <section class="card">
        <PresetBar form={form} />
        <BenchForm
          sections={props.sections}
          values={form.values.value}
          errors={form.fieldErrors.value}
          onChange={form.set}
        />
      </section>
    </div>
  );
}
