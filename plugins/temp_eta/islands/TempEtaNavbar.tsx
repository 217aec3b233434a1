import { useEffect, useState } from "preact/hooks";
import {
  applyEtaUpdate,
  applySettingsChanged,
  DEFAULT_UI,
  type HeaterMap,
  heaterMapOf,
  heaterName,
  isEtaUpdate,
  loadEtaStatus,
  navbarHeaters,
  tempText,
} from "../client.ts";
import type { UiConfig } from "../ui_config.ts";
import { openPush } from "../../../lib/shared/push_client.ts";

/**
 * The navbar element of the Temperature ETA plugin: the heaters that have an ETA (or are stalled
 * or calculating), shown while `show_in_navbar` is on and the plugin is enabled. Live through the
 * push socket; the status route seeds it.
 */
export default function TempEtaNavbar() {
  const [heaters, setHeaters] = useState<HeaterMap>({});
  const [ui, setUi] = useState<UiConfig>(DEFAULT_UI);
  const [enabled, setEnabled] = useState(false);

  useEffect(() => {
    const load = () =>
      loadEtaStatus().then((s) => {
        setHeaters(heaterMapOf(s.heaters));
        setUi(s.ui);
        setEnabled(s.enabled);
      }).catch(() => setEnabled(false));
    load();
    return openPush("temp_eta", (data) => {
      if (isEtaUpdate(data)) setHeaters((h) => applyEtaUpdate(h, data));
      else if (data.type === "settings_changed") {
        if (typeof data.enabled === "boolean") setEnabled(data.enabled);
        setUi((current) => applySettingsChanged(current, data).ui);
      }
    }, (open) => {
      if (open) load();
    });
  }, []);

  const items = navbarHeaters(heaters);
  return (
    <span
      class="eta-nav"
      data-testid="eta-navbar"
      hidden={!enabled || !ui.show_in_navbar || items.length === 0}
    >
      {items.map((h) => (
        <span key={h.heater} class={`eta-nav-item eta-${h.state}`}>
          {h.state === "cooling" ? "▼" : "▲"} {heaterName(h.heater)} <b>{h.display.eta}</b>{" "}
          <small>{tempText(h)}</small>
        </span>
      ))}
    </span>
  );
}
