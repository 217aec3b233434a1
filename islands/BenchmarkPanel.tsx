/**
 * Island: the Benchmark view. Every parameter, presets (load, save, delete), start / pause /
 * resume / stop, and the live output and charts fed by the event stream.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { api, TOKEN_KEY } from "../components/api_client.ts";
import { ChartCanvas } from "../components/ChartCanvas.tsx";
import FlagForm from "../components/FlagForm.tsx";
import {
  type FlagView,
  formToBody,
  type FormValues,
  presetToForm,
} from "../components/flag_values.ts";
import { initialLive, reduceLive } from "../components/live_state.ts";
import { useBenchEvents } from "../components/use_bench_events.ts";

/** Props of the panel. */
export interface BenchmarkPanelProps {
  flags: FlagView[];
  presets: { name: string; readonly: boolean }[];
  status: string;
  tokenRequired: boolean;
}

/** The Benchmark view's interactive part. */
export default function BenchmarkPanel(props: BenchmarkPanelProps) {
  const [values, setValues] = useState<FormValues>({});
  const [presets, setPresets] = useState(props.presets);
  const [preset, setPreset] = useState("");
  const [saveName, setSaveName] = useState("");
  const [message, setMessage] = useState("");
  const [live, setLive] = useState(() => initialLive(props.status));
  useBenchEvents((e) => setLive((s) => reduceLive(s, e)));

  const run = async (what: () => Promise<string | void>) => {
    try {
      setMessage((await what()) ?? "");
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  const control = (action: string) =>
    run(async () => {
      await api(`/api/benchmark/${action}`, { method: "POST" });
    });
  const start = () =>
    run(async () => {
      const body = { ...formToBody(props.flags, values), ...(preset ? { preset } : {}) };
      await api("/api/benchmark/start", { method: "POST", body: JSON.stringify(body) });
      return "Started";
    });
  const loadPreset = (name: string) =>
    run(async () => {
      setPreset(name);
      if (!name) return setValues({});
      const p = await api<{ values: Record<string, unknown> }>(`/api/presets/${name}`);
      setValues(presetToForm(props.flags, p.values));
      return `Preset ${name} loaded`;
    });
  const refreshPresets = async () =>
    setPresets(
      (await api<{ presets: { name: string; readonly: boolean }[] }>("/api/presets"))
        .presets,
    );
  const savePreset = () =>
    run(async () => {
      const body = { name: saveName, values: formToBody(props.flags, values) };
      await api("/api/presets", { method: "POST", body: JSON.stringify(body) });
      await refreshPresets();
      return `Preset ${saveName} saved`;
    });
  const deletePreset = () =>
    run(async () => {
      await api(`/api/presets/${preset}`, { method: "DELETE" });
      setPreset("");
      await refreshPresets();
      return `Preset ${preset} deleted`;
    });

  const s = live.status;
  const userPreset = presets.find((p) => p.name === preset && !p.readonly);
  return (
    <div class="bench">
      <section class="card controls">
        <div class="status-line">
          <span id="bench-status" class={`badge ${s}`} data-status={s}>{s}</span>
          <span id="bench-model">{live.model ?? ""}</span>
          <progress id="bench-progress" max={100} value={live.percent} />
          {live.outcome && <span id="bench-outcome">last: {live.outcome}</span>}
        </div>
        <div class="buttons">
          <button id="btn-start" type="button" disabled={s !== "idle"} onClick={start}>
            Start
          </button>
          <button
            id="btn-pause"
            type="button"
            disabled={s !== "running"}
            onClick={() => control("pause")}
          >
            Pause
          </button>
          <button
            id="btn-resume"
            type="button"
            disabled={s !== "paused"}
            onClick={() => control("resume")}
          >
            Resume
          </button>
          <button
            id="btn-stop"
            type="button"
            class="danger"
            disabled={s === "idle"}
            onClick={() => control("stop")}
          >
            Stop
          </button>
        </div>
        {message && <p id="bench-message" class="message" role="status">{message}</p>}
        {props.tokenRequired && (
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
      <section class="card">
        <div class="toolbar">
          <select
            id="preset"
            value={preset}
            onChange={(e) => loadPreset((e.target as HTMLSelectElement).value)}
          >
            <option value="">(no preset)</option>
            {presets.map((p) => (
              <option key={p.name} value={p.name}>{p.name}{p.readonly ? " (built-in)" : ""}</option>
            ))}
          </select>
          <input
            id="preset-name"
            placeholder="save as…"
            value={saveName}
            onInput={(e) => setSaveName((e.target as HTMLInputElement).value)}
          />
          <button type="button" id="btn-save-preset" disabled={!saveName} onClick={savePreset}>
            Save preset
          </button>
          <button
            type="button"
            id="btn-delete-preset"
            disabled={!userPreset}
            onClick={deletePreset}
          >
            Delete preset
          </button>
        </div>
        <FlagForm
          flags={props.flags}
          values={values}
          onChange={(k, v) => setValues({ ...values, [k]: v })}
        />
      </section>
      <section class="grid2">
        <div class="card">
          <h2>Live output</h2>
          <pre id="live-output" class="terminal" aria-live="polite">{live.output}</pre>
        </div>
        <div class="card">
          <h2>Tokens/s per run</h2>
          <ChartCanvas
            id="chart-live-runs"
            size="small"
            spec={{
              type: "line",
              labels: live.runs.map((r) => r.label),
              series: [{ label: "tok/s", data: live.runs.map((r) => r.speed) }],
            }}
          />
          <h2>Hardware</h2>
          <ChartCanvas
            id="chart-live-hw"
            size="small"
            spec={{
              type: "line",
              labels: live.hardware.map((h) => h.t),
              series: [
                { label: "temp °C", data: live.hardware.map((h) => h.temp) },
                { label: "CPU %", data: live.hardware.map((h) => h.cpu) },
                { label: "RAM GB", data: live.hardware.map((h) => h.ram) },
              ],
            }}
          />
        </div>
      </section>
    </div>
  );
}
