/**
 * Island: the Benchmark view. Start / pause / resume / stop with the progress, the live output
 * and charts right below (in sight after Start), then every parameter and presets (load, save,
 * delete). The form is signals (`bench_form.ts`); the live
 * state is the page's shared signal fed by the event stream (`bench_events.ts`), shown as the
 * server's status until the stream is followed.
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

/** Props of the panel. */
export interface BenchmarkPanelProps {
  sections: FormSection[];
  presets: PresetItem[];
  status: string;
  tokenRequired: boolean;
}

/** The Benchmark view's interactive part. */
export default function BenchmarkPanel(props: BenchmarkPanelProps) {
  const form = useMemo(
    () => createBenchForm(props.sections.flatMap((s) => s.fields), props.presets),
    [],
  );
  const following = useSignal(false);
  const live = useComputed(() => following.value ? benchLive.value : initialLive(props.status));
  useEffect(() => {
    following.value = true;
    return followBenchEvents(props.status);
  }, []);
  return (
    <div class="bench">
      <BenchControls form={form} live={live} tokenRequired={props.tokenRequired} />
      <LiveView live={live} started={form.started.value} />
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
