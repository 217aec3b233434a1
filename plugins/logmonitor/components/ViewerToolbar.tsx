/**
 * The viewer's toolbar: the file, the live tail switch, the push socket's state, the alert
 * badge (click to reset) and the alert history switch.
 *
 * @module
 */
import { pushConnected } from "../../../lib/shared/push.ts";
import type { ViewerState } from "./viewer_state.ts";

/** The toolbar. */
export function ViewerToolbar({ s }: { s: ViewerState }) {
  const connected = pushConnected.value;
  return (
    <div class="toolbar">
      <label>
        File{" "}
        <select
          value={s.file.value}
          onChange={(e) => s.file.value = (e.target as HTMLSelectElement).value}
          data-testid="file"
        >
          {s.config.files.map((f) => (
            <option key={f.name} value={f.name}>{f.name} ({f.size} B)</option>
          ))}
        </select>
      </label>
      <button
        type="button"
        onClick={s.toggleLive}
        data-testid="live"
        class={s.live.value ? "active" : ""}
      >
        {s.live.value ? "Stop live tail" : "Live tail"}
      </button>
      <span class={`push-state ${connected ? "on" : "off"}`}>
        {connected ? "connected" : "offline"}
      </span>
      <button
        type="button"
        class={`alert-badge level-${(s.topLevel.value ?? "none").toLowerCase()}`}
        onClick={s.resetAlerts}
        title="Alerts since the last reset (click to reset)"
        data-testid="alerts"
      >
        Alerts: {s.alertTotal.value}
      </button>
      <button type="button" onClick={s.toggleHistory} data-testid="history-toggle">History</button>
    </div>
  );
}
