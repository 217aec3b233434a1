/**
 * The live view of a benchmark: the output as a terminal that follows new text unless the user
 * scrolled up (and is scrollable by keyboard), tokens per second per run and parallel round,
 * and the hardware samples — or, when there is nothing to draw, why.
 *
 * @module
 */
import type { ReadonlySignal } from "@preact/signals";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { ChartCanvas } from "./ChartCanvas.tsx";
import { shortModelName } from "../lib/shared/model_name.ts";
import type { LiveState, SpeedPoint } from "./live_state.ts";

/** How close to the bottom (px) still counts as following. */
const FOLLOW_SLACK = 24;

/** The output box: follows the end while the user is there. */
function Terminal({ output }: { output: string }) {
  const box = useRef<HTMLPreElement>(null);
  const follow = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [output]);
  const onScroll = () => {
    const el = box.current;
    if (el) follow.current = el.scrollTop + el.clientHeight >= el.scrollHeight - FOLLOW_SLACK;
  };
  return (
    <pre
      id="live-output"
      ref={box}
      class="terminal"
      tabIndex={0}
      role="region"
      aria-label="Live output"
      onScroll={onScroll}
    >
      {output || "The output of the next run appears here."}
    </pre>
  );
}

/** The hardware chart, or why there is none. */
function Hardware({ live }: { live: LiveState }) {
  if (live.hardware.length === 0) {
    const flag = <span class="flag">(--enable-profiling)</span>;
    const why = live.profiling === false
      ? (
        <>
          Profiling is off for this run: temperature, CPU and RAM are sampled when “Sample the
          hardware” {flag} is on.
        </>
      )
      : live.profiling === true
      ? "Waiting for the first hardware sample…"
      : (
        <>
          Temperature, CPU and RAM are drawn here during a run with “Sample the hardware” {flag} on.
        </>
      );
    // One child: the box centres it as one block of text (a flex item per element otherwise).
    return (
      <p id="hw-empty" class="chart-empty">
        <span>{why}</span>
      </p>
    );
  }
  return (
    <ChartCanvas
      id="chart-live-hw"
      size="small"
      label="Hardware samples: temperature, CPU and RAM"
      spec={{
        type: "line",
        labels: live.hardware.map((h) => h.t),
        series: [
          { label: "temp °C", data: live.hardware.map((h) => h.temp) },
          { label: "CPU %", data: live.hardware.map((h) => h.cpu) },
          { label: "RAM GiB", data: live.hardware.map((h) => h.ram) },
        ],
      }}
    />
  );
}

/** A variant as the chart's axis names it: `qwen3-4b q4_k_m` for `qwen/qwen3-4b@q4_k_m`. */
function variantLabel(key: string): string {
  return shortModelName(key).split("/").at(-1)!.replace("@", " ");
}

/** The speed per run and per parallel round, or why there is none yet. */
function Speeds({ live }: { live: LiveState }) {
  if (live.runs.length === 0) {
    return <p id="runs-empty" class="chart-empty">Tokens per second appear after each run.</p>;
  }
  const rounds = live.runs.some((r) => r.kind === "round");
  // The variant is named on the axis only when the run measures more than one (short, so the
  // labels fit a phone); the run's header above the output names it anyway.
  const many = new Set(live.runs.map((r) => r.key)).size > 1;
  const label = (r: SpeedPoint) => many ? `${variantLabel(r.key)} ${r.label}` : r.label;
  return (
    <ChartCanvas
      id="chart-live-runs"
      size="small"
      label="Tokens per second per run"
      spec={{
        type: "line",
        labels: live.runs.map(label),
        series: [
          { label: "tok/s per run", data: live.runs.map((r) => r.kind === "run" ? r.speed : null) },
          ...(rounds
            ? [{
              label: "tok/s per parallel round",
              data: live.runs.map((r) => r.kind === "round" ? r.speed : null),
            }]
            : []),
        ],
      }}
    />
  );
}

/** Props of {@linkcode LiveView}. */
export interface LiveViewProps {
  live: ReadonlySignal<LiveState>;
  /** Changes when a run was started from this page: the view scrolls into sight and takes focus. */
  started: number;
}

/** The live output and charts. */
export function LiveView({ live, started }: LiveViewProps) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (started === 0 || !section.current) return;
    // Just below the controls, which stay at the top of the window (sticky).
    const controls = document.querySelector<HTMLElement>(".controls");
    section.current.style.scrollMarginTop = controls ? `${controls.offsetHeight + 8}px` : "";
    section.current.scrollIntoView({ block: "start" });
    section.current.querySelector<HTMLElement>("#live-output")?.focus({ preventScroll: true });
  }, [started]);
  const l = live.value;
  return (
    <section id="live" ref={section} class="grid2 live" aria-label="Live view">
      <div class="card">
        <h2>Live output</h2>
        <Terminal output={l.output} />
      </div>
      <div class="card">
        <h2>Tokens/s per run</h2>
        <Speeds live={l} />
        <h2>Hardware</h2>
        <Hardware live={l} />
      </div>
    </section>
  );
}
