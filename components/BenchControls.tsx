/**
 * The benchmark's status line (status, model, progress, last outcome), its start / pause /
 * resume / stop buttons, the last message and, when the server needs it, the token field.
 *
 * @module
 */
import type { ReadonlySignal } from "@preact/signals";
import { TOKEN_KEY } from "./api_client.ts";
import type { BenchForm } from "./bench_form.ts";
import type { LiveState } from "./live_state.ts";

/** Props of {@linkcode BenchControls}. */
export interface BenchControlsProps {
  form: BenchForm;
  live: ReadonlySignal<LiveState>;
  tokenRequired: boolean;
}

/** Status and controls. */
export function BenchControls({ form, live, tokenRequired }: BenchControlsProps) {
  const l = live.value;
  const s = l.status;
  return (
    <section class="card controls">
      <div class="status-line">
        <span id="bench-status" class={`badge ${s}`} data-status={s}>{s}</span>
        <span id="bench-model">{l.model ?? ""}</span>
        <progress id="bench-progress" max={100} value={l.percent} />
        {l.outcome && <span id="bench-outcome">last: {l.outcome}</span>}
      </div>
      <div class="buttons">
        <button id="btn-start" type="button" disabled={s !== "idle"} onClick={form.start}>
          Start
        </button>
        <button
          id="btn-pause"
          type="button"
          disabled={s !== "running"}
          onClick={() => form.control("pause")}
        >
          Pause
        </button>
        <button
          id="btn-resume"
          type="button"
          disabled={s !== "paused"}
          onClick={() => form.control("resume")}
        >
          Resume
        </button>
        <button
          id="btn-stop"
          type="button"
          class="danger"
          disabled={s === "idle"}
          onClick={() => form.control("stop")}
        >
          Stop
        </button>
      </div>
      {form.message.value && (
        <p id="bench-message" class="message" role="status">{form.message.value}</p>
      )}
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
