/**
 * The sidebar list of the heaters: name, temperatures and ETA (or state) of each.
 *
 * @module
 */
import { type HeaterInfo, heaterName, STATE_TEXT, tempText } from "../status_feed.ts";

/** The heaters' list. */
export function EtaSidebar({ list }: { list: HeaterInfo[] }) {
  return (
    <aside class="eta-sidebar" data-testid="eta-sidebar">
      <h2>Temperatures</h2>
      {list.length === 0 ? <p class="hint">No heater data yet</p> : null}
      <ul>
        {list.map((h) => (
          <li key={h.heater} class={`eta-${h.state}`}>
            <span class="name">{heaterName(h.heater)}</span>
            <span class="temps">{tempText(h)}</span>
            <span class="eta">{h.display?.eta ?? STATE_TEXT[h.state]}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
