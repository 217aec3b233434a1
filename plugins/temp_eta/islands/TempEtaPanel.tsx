/**
 * The Temperature ETA panel: per heater the temperatures, the ETA text, rate, percentage and
 * state; a sidebar list, a graph of temperature and ETA history, and the heating and cooling
 * sounds and notifications, each according to the plugin's settings. The heaters and settings
 * are the page's shared signals (`../components/eta_live.ts`); this island adds the history,
 * the alerts and their toasts.
 *
 * @module
 */
import { useEffect, useMemo, useRef } from "preact/hooks";
import { pushConnected } from "../../../lib/shared/push.ts";
import { orderHeaters } from "../status_feed.ts";
import { EtaGraph } from "../components/EtaGraph.tsx";
import { EtaSidebar } from "../components/EtaSidebar.tsx";
import {
  algorithm,
  enabled,
  followEta,
  heaters,
  loaded,
  loadError,
  ui,
} from "../components/eta_live.ts";
import { HeaterCard } from "../components/HeaterCard.tsx";
import { createPanelState, type PanelState, permissionState } from "../components/panel_state.ts";
import { Toasts } from "../components/Toasts.tsx";

/** Props of the Temperature ETA panel. */
export interface TempEtaPanelProps {
  /** Seconds of history in the graph. @default 180 */
  graphSeconds?: number;
}

/** Live state, notification permission and the sound test. */
function EtaToolbar({ panel }: { panel: PanelState }) {
  const live = pushConnected.value;
  const sound = ui.value.heating_sound_url;
  return (
    <div class="toolbar">
      <span class={`push-state ${live ? "on" : "off"}`}>{live ? "live" : "offline"}</span>
      {algorithm.value
        ? <span class="hint" data-testid="algorithm">Algorithm: {algorithm.value}</span>
        : null}
      {panel.permission.value === "default"
        ? (
          <button
            type="button"
            onClick={() =>
              Notification.requestPermission().then(() =>
                panel.permission.value = permissionState()
              )}
          >
            Enable notifications
          </button>
        )
        : null}
      {sound ? <button type="button" onClick={() => panel.play(sound)}>Test sound</button> : null}
    </div>
  );
}

/** The Temperature ETA panel. */
export default function TempEtaPanel({ graphSeconds = 180 }: TempEtaPanelProps) {
  const panel = useMemo(() => createPanelState(graphSeconds), [graphSeconds]);
  const audio = useRef<HTMLAudioElement>(null);
  panel.audio = audio;
  useEffect(() => followEta(panel.onMessage), [panel]);

  const list = orderHeaters(Object.values(heaters.value));
  const settings = ui.value;
  return (
    <div class="eta-layout">
      {settings.show_in_sidebar ? <EtaSidebar list={list} /> : null}
      <section class="eta-main">
        <EtaToolbar panel={panel} />
        {loadError.value ? <p class="error" role="alert">{loadError.value}</p> : null}
        {!enabled.value
          ? <p class="banner" data-testid="eta-disabled">The Temperature ETA plugin is disabled.</p>
          : null}
        {loaded.value && enabled.value && list.length === 0
          ? <p class="hint">No heater data yet</p>
          : null}
        <div class="eta-cards">
          {list.map((h) => <HeaterCard key={h.heater} h={h} ui={settings} />)}
        </div>
        {settings.show_in_graph
          ? <EtaGraph history={panel.history.value} windowSeconds={graphSeconds} />
          : null}
        <audio ref={audio} preload="none" data-testid="eta-audio" />
        <Toasts list={panel.toasts} />
      </section>
    </div>
  );
}
