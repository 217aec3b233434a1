/**
 * The top-bar element of the Temperature ETA plugin: the heaters that have an ETA (or are
 * stalled or calculating), shown while `show_in_navbar` is on and the plugin is enabled. It reads
 * the page's shared signals, so with the panel on the page both use one status load and one
 * push subscription.
 *
 * @module
 */
import { useEffect } from "preact/hooks";
import { heaterName, navbarHeaters, tempText } from "../status_feed.ts";
import { enabled, followEta, heaters, loaded, ui } from "../components/eta_live.ts";

/** The top-bar element. */
export default function TempEtaNavbar() {
  useEffect(() => followEta(), []);
  const items = navbarHeaters(heaters.value);
  return (
    <span
      class="eta-nav"
      data-testid="eta-navbar"
      hidden={!loaded.value || !enabled.value || !ui.value.show_in_navbar || items.length === 0}
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
