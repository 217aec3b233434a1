/**
 * One heater's card: name, state, temperatures, ETA, rate and percentage (as the settings say)
 * and a progress bar.
 *
 * @module
 */
import { type HeaterInfo, heaterName, STATE_TEXT, tempText } from "../status_feed.ts";
import type { UiConfig } from "../ui_config.ts";

/** A heater's card. */
export function HeaterCard({ h, ui }: { h: HeaterInfo; ui: UiConfig }) {
  const d = h.display ?? { eta: null };
  const pct = ui.show_percentage && h.progress !== null ? Math.round(h.progress) : null;
  return (
    <article
      class={`eta-card eta-${h.state}`}
      data-testid={`heater-${h.heater}`}
      data-state={h.state}
    >
      <header>
        <strong>{heaterName(h.heater)}</strong>
        <span class={`state state-${h.state}`} data-testid="state">{STATE_TEXT[h.state]}</span>
      </header>
      <div class="temps" data-testid="temps">{tempText(h)}</div>
      <div class="eta-line">
        <span class="eta" data-testid="eta">{d.eta ?? "—"}</span>
        {ui.show_rate && d.rate ? <span class="rate" data-testid="rate">{d.rate}</span> : null}
        {ui.show_percentage && d.percentage
          ? <span class="pct" data-testid="percentage">{d.percentage}</span>
          : null}
      </div>
      {pct !== null && d.eta
        ? (
          <progress
            class="progress"
            aria-hidden="true"
            max={100}
            value={Math.min(100, Math.max(0, pct))}
          />
        )
        : null}
    </article>
  );
}
