/**
 * The branch power controller panel: summary chips, one card per channel (badge, label, mode,
 * on/off, rule matrix, temperature rule, failsafe), a confirmation before switching a 24 V
 * channel on, and a banner while the hub is disconnected. Its state is signals
 * (`../components/power_state.ts`), live through the page's push socket.
 *
 * @module
 */
import { useEffect, useMemo } from "preact/hooks";
import { ConfirmDialog, DisconnectedBanner, StateChips } from "../components/PanelParts.tsx";
import { PowerCard } from "../components/PowerCard.tsx";
import { createPowerState } from "../components/power_state.ts";

/** Props of the power panel. */
export interface PowerPanelProps {
  csrfToken: string;
  /** The user may switch (CONTROL and a session); else the panel only shows. */
  canControl: boolean;
}

/** The power panel. */
export default function PowerPanel({ csrfToken, canControl }: PowerPanelProps) {
  const s = useMemo(() => createPowerState(csrfToken), [csrfToken]);
  useEffect(() => s.follow(), [s]);
  const panel = s.panel.value;
  if (!panel) {
    return (
      <div class="power-panel">
        {s.error.value ? <p class="error" role="alert">{s.error.value}</p> : <p>Loading…</p>}
      </div>
    );
  }
  const cards = s.cards.value;
  return (
    <div class="power-panel">
      <DisconnectedBanner s={s} />
      {s.error.value ? <p class="error" role="alert">{s.error.value}</p> : null}
      <StateChips cards={cards} />
      {canControl ? null : (
        <p class="note" data-testid="read-only">
          You can watch these outputs; switching them or changing their rules needs the CONTROL
          permission (ask an administrator).
        </p>
      )}
      <div class="power-cards">
        {cards.map((card) => (
          <PowerCard
            key={card.key}
            card={card}
            connected={panel.connected}
            waiting={s.waiting.value[card.key]}
            error={s.errors.value[card.key]}
            onSwitch={(on) => s.requestSwitch(card, on)}
            onMode={(mode) => s.setMode(card, mode)}
            onLabel={(label) => s.setLabel(card, label)}
            onConfig={(change) => s.setConfig(card, change)}
            readOnly={!canControl}
          />
        ))}
      </div>
      <ConfirmDialog s={s} />
    </div>
  );
}
