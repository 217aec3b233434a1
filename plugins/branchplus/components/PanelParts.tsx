/**
 * The power panel's smaller parts: the disconnected banner, the summary chips and the 24 V
 * confirmation dialog.
 *
 * @module
 */
import { ModalDialog } from "../../../lib/shared/dialog.tsx";
import { pushConnected } from "../../../lib/shared/push.ts";
import type { CardView } from "../panel_client.ts";
import { CHIP_TEXT } from "./PowerCard.tsx";
import type { PowerState } from "./power_state.ts";

/** The banner shown while the hub is disconnected. */
export function DisconnectedBanner({ s }: { s: PowerState }) {
  if (!s.panel.value || s.panel.value.connected) return null;
  return (
    <div class="banner banner-error" role="alert" data-testid="disconnected">
      <strong>Hub disconnected.</strong>{" "}
      {s.detail.value || "Channels cannot be switched until it is back."}
    </div>
  );
}

/** One chip per channel with its state, and whether updates are live. */
export function StateChips({ cards }: { cards: CardView[] }) {
  const live = pushConnected.value;
  return (
    <div class="chips" data-testid="chips">
      {cards.map((c) => (
        <span key={c.key} class={`chip chip-${c.chip}`} title={`${c.label}: ${CHIP_TEXT[c.chip]}`}>
          {c.label}
        </span>
      ))}
      <span class={`push-state ${live ? "on" : "off"}`}>
        {live ? "live updates" : "updates offline"}
      </span>
    </div>
  );
}

/**
 * Asks before switching a 24 V output on: a modal dialog (focus kept inside, Esc cancels, the
 * focus back on the card's button afterwards) whose default button is Cancel.
 */
export function ConfirmDialog({ s }: { s: PowerState }) {
  const pending = s.confirm.value;
  const card = pending && s.cards.value.find((c) => c.kind === pending.kind && c.id === pending.id);
  if (!card) return null;
  const cancel = () => s.confirm.value = null;
  return (
    <ModalDialog title="Switch on a 24 V output?" onClose={cancel} testid="confirm">
      <p>
        <strong>{card.label}</strong>{" "}
        ({card.type}) supplies 24 V. Make sure the connected device is rated for it.
      </p>
      <div class="modal-actions">
        <button
          type="button"
          class="danger"
          data-testid="confirm-yes"
          onClick={() => {
            s.confirm.value = null;
            s.switchTo(card, true, true);
          }}
        >
          Switch on
        </button>
        <button type="button" data-testid="confirm-no" autofocus onClick={cancel}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}
