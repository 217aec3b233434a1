/**
 * The benchmark's status line (status, model, progress with the phase and the time left, the
 * last outcome), its start / pause / resume / stop buttons, the last message (an error as an
 * alert) and, when the server needs it, the token field.
 *
 * @module
 */
import { type ReadonlySignal, useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { TOKEN_KEY } from "./api_client.ts";
import type { BenchForm } from "./bench_form.ts";
import { formatEta, type LiveState } from "./live_state.ts";

/** Props of {@linkcode BenchControls}. */
export interface BenchControlsProps {
  form: BenchForm;
  live: ReadonlySignal<LiveState>;
  tokenRequired: boolean;
  /** The machine picker, when the dashboard has a fleet. */
  picker?: ComponentChildren;
  /** The benchmark followed runs on a fleet agent: pause, resume and stop are this machine's. */
  remote?: boolean;
  /** Whether the picked machine can take a job (a live agent). @default true */
  startable?: boolean;
}

/** The ETA counted down between status events (a tick a second while running). */
function Eta({ live }: { live: LiveState }) {
  const now = useSignal(Date.now());
  useEffect(() => {
    if (live.status !== "running") return;
    const t = setInterval(() => now.value = Date.now(), 1000);
    return () => clearInterval(t);
  }, [live.status]);
  if (live.status !== "running" || live.etaS === null) return null;
  const left = live.etaS - Math.max(0, now.value - live.etaAt) / 1000;
  return <span id="bench-eta">{formatEta(left)}</span>;
}

/** How the last run ended, in words. */
function Outcome({ live, shownError }: { live: LiveState; shownError: string }) {
  const o = live.outcome;
  if (!o || live.status !== "idle") return null;
  const counts = `${o.tested} measured${
    o.partial ? ` (${o.partial} partial: some runs failed)` : ""
  }, ${o.failed} failed, ${o.skipped} skipped`;
  if (o.outcome === "failed") {
    // The start's own answer already says it (above), once is enough.
    if (o.error !== null && o.error === shownError) return null;
    return (
      <p id="bench-outcome" class="banner banner-error" role="alert" data-outcome="failed">
        <strong>Last run failed</strong>
        {o.error ? `: ${o.error}` : ""}
      </p>
    );
  }
  return (
    <p id="bench-outcome" class="outcome" data-outcome={o.outcome}>
      Last run {o.outcome}: {counts}
    </p>
  );
}

/** Status and controls. */
export function BenchControls(props: BenchControlsProps) {
  const { form, live, tokenRequired, remote = false, startable = true } = props;
  const l = live.value;
  const s = l.status;
  // A job on an agent is followed, not steered: these buttons act on this machine's benchmark.
  const local = (ok: boolean) => !remote && ok;
  const why = remote ? "A job on an agent is followed here; it cannot be paused or stopped" : "";
  const busy = form.busy.value;
  const percent = Math.round(l.percent);
  // A run that did not complete does not look like one that did: its bar is grey or red.
  const ended = s === "idle" && l.outcome && l.outcome.outcome !== "completed"
    ? l.outcome.outcome
    : "";
  return (
    <section class="card controls" aria-label="Benchmark controls">
      <div class="status-line">
        <span id="bench-status" class={`badge ${s}`} data-status={s}>{s}</span>
        <span id="bench-model">{l.model ?? ""}</span>
        <span id="bench-phase">{s !== "idle" ? l.detail : ""}</span>
        <Eta live={l} />
      </div>
      <div class="progress-line">
        <progress
          id="bench-progress"
          class={`progress ${ended}`}
          data-outcome={ended || undefined}
          max={100}
          value={l.percent}
          aria-label="Benchmark progress"
        />
        <span id="bench-percent">{percent}%</span>
      </div>
      <div class="buttons">
        {props.picker}
        <button
          id="btn-start"
          type="button"
          disabled={s !== "idle" || busy || !startable}
          onClick={form.start}
        >
          {busy ? "Starting…" : "Start"}
        </button>
        <button
          id="btn-pause"
          title={why || undefined}
          type="button"
          disabled={!local(s === "running")}
          onClick={() => form.control("pause")}
        >
          Pause
        </button>
        <button
          id="btn-resume"
          title={why || undefined}
          type="button"
          disabled={!local(s === "paused")}
          onClick={() => form.control("resume")}
        >
          Resume
        </button>
        <button
          id="btn-stop"
          title={why || undefined}
          type="button"
          class="danger"
          disabled={!local(s !== "idle")}
          onClick={() => form.control("stop")}
        >
          Stop
        </button>
      </div>
      {form.error.value && (
        <p id="bench-error" class="banner banner-error" role="alert">{form.error.value}</p>
      )}
      {form.message.value && (
        <p id="bench-message" class="message" role="status">{form.message.value}</p>
      )}
      <Outcome live={l} shownError={form.error.value} />
      {tokenRequired && (
        <label class="field">
          <span>Dashboard token</span>
          <input
            id="token"
            type="password"
            onInput={(e) => localStorage.setItem(TOKEN_KEY, (e.target as HTMLInputElement).value)}
          />
        </label>
      )}
    </section>
  );
}
