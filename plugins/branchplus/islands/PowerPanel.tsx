import { useEffect, useState } from "preact/hooks";
import type { ChannelConfig } from "../channel_config.ts";
import type { ChannelKind } from "../layout.ts";
import { applyPush, needsConfirmation, type PanelState, panelStateFrom } from "../panel_state.ts";
import {
  type CardView,
  cardViews,
  failureText,
  patchConfig,
  POWER_API,
  type PowerStatus,
  replaceConfig,
  sendCommand,
} from "../panel_client.ts";
import { openPush } from "../../../lib/shared/push_client.ts";
import { CHIP_TEXT, PowerCard } from "../components/PowerCard.tsx";

/** Props of the power panel. */
export interface PowerPanelProps {
  csrfToken: string;
}

interface Pending {
  kind: ChannelKind;
  id: number;
  label: string;
}

/**
 * The branch power controller panel: summary chips, one card per channel (badge, label, mode,
 * on/off, rule matrix, temperature rule, failsafe), a confirmation before switching a 24 V
 * channel on, and a banner while the hub is disconnected. Live through the push socket.
 */
export default function PowerPanel({ csrfToken }: PowerPanelProps) {
  const [panel, setPanel] = useState<PanelState | null>(null);
  const [configs, setConfigs] = useState<ChannelConfig[]>([]);
  const [detail, setDetail] = useState("");
  const [error, setError] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [waiting, setWaiting] = useState<Record<string, 0 | 1>>({});
  const [confirm, setConfirm] = useState<Pending | null>(null);
  const [live, setLive] = useState(false);

  const load = async () => {
    try {
      const res = await fetch(POWER_API, { credentials: "same-origin" });
      const body = await res.json() as PowerStatus & { error?: string };
      if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
      setPanel(panelStateFrom(body));
      setConfigs(body.config?.channels ?? []);
      setDetail(body.detail ?? "");
      setError("");
    } catch (err) {
      setError(`Cannot load the power state: ${(err as Error).message}`);
    }
  };

  useEffect(() => {
    load();
    return openPush("branchplus", (data) => {
      setPanel((p) => p ? applyPush(p, data) : p);
      if (data.type === "connection" && data.connected === true) setDetail("");
    }, (open) => {
      setLive(open);
      if (open) load();
    });
  }, []);

  // Forget a "waiting for the hub" mark once the hub reports the wanted state.
  useEffect(() => {
    if (!panel) return;
    const left = Object.fromEntries(
      Object.entries(waiting).filter(([key, want]) => {
        const [kind, id] = key.split(":");
        return panel.channels[kind as ChannelKind]?.[id!] !== want;
      }),
    );
    if (Object.keys(left).length !== Object.keys(waiting).length) setWaiting(left);
  }, [panel]);

  const fail = (key: string, message: string) => setErrors((e) => ({ ...e, [key]: message }));
  const clear = (key: string) =>
    setErrors((e) => {
      const { [key]: _gone, ...rest } = e;
      return rest;
    });

  const run = async (card: CardView, body: Record<string, unknown>) => {
    clear(card.key);
    const answer = await sendCommand(csrfToken, { ...body, kind: card.kind, id: card.id });
    if (!answer.ok) fail(card.key, failureText(answer));
    return answer;
  };

  const switchTo = async (card: CardView, on: boolean, confirmed = false) => {
    setWaiting((w) => ({ ...w, [card.key]: on ? 1 : 0 }));
    const answer = await run(card, {
      command: "set_channel",
      on,
      ...(confirmed ? { confirm: true } : {}),
    });
    if (!answer.ok) {
      setWaiting((w) => {
        const { [card.key]: _gone, ...rest } = w;
        return rest;
      });
    }
  };

  const requestSwitch = (card: CardView, on: boolean) => {
    if (panel && needsConfirmation(panel, card.kind, on)) {
      setConfirm({ kind: card.kind, id: card.id, label: card.label });
    } else switchTo(card, on);
  };

  const setMode = async (card: CardView, mode: "auto" | "manual") => {
    // Optimistic: the switch moves at once and moves back when the command fails.
    setConfigs((c) => patchConfig(c, card.kind, card.id, { mode }));
    const answer = await run(card, { command: "set_mode", mode });
    if (!answer.ok) setConfigs((c) => patchConfig(c, card.kind, card.id, { mode: card.mode }));
  };

  const setLabel = async (card: CardView, label: string) => {
    if (label === card.label) return;
    const answer = await run(card, { command: "set_label", label });
    if (answer.ok) {
      setConfigs((c) => patchConfig(c, card.kind, card.id, { label: String(answer.label) }));
    }
  };

  const setConfig = async (card: CardView, change: Record<string, unknown>) => {
    const answer = await run(card, { command: "set_channel_config", ...change });
    if (answer.ok && answer.config) {
      setConfigs((c) => replaceConfig(c, answer.config as ChannelConfig));
    }
  };

  if (!panel) {
    return (
      <div class="power-panel">
        {error ? <p class="error" role="alert">{error}</p> : <p>Loading…</p>}
      </div>
    );
  }
  const cards = cardViews(panel, configs);
  const confirmCard = confirm && cards.find((c) => c.kind === confirm.kind && c.id === confirm.id);
  return (
    <div class="power-panel">
      {panel.connected
        ? null
        : (
          <div class="banner banner-error" role="alert" data-testid="disconnected">
            <strong>Hub disconnected.</strong>{" "}
            {detail || "Channels cannot be switched until it is back."}
          </div>
        )}
      {error ? <p class="error" role="alert">{error}</p> : null}
      <div class="chips" data-testid="chips">
        {cards.map((c) => (
          <span
            key={c.key}
            class={`chip chip-${c.chip}`}
            title={`${c.label}: ${CHIP_TEXT[c.chip]}`}
          >
            {c.label}
          </span>
        ))}
        <span class={`push-state ${live ? "on" : "off"}`}>
          {live ? "live updates" : "updates offline"}
        </span>
      </div>
      <div class="power-cards">
        {cards.map((card) => (
          <PowerCard
            key={card.key}
            card={card}
            connected={panel.connected}
            waiting={waiting[card.key]}
            error={errors[card.key]}
            onSwitch={(on) => requestSwitch(card, on)}
            onMode={(mode) => setMode(card, mode)}
            onLabel={(label) => setLabel(card, label)}
            onConfig={(change) => setConfig(card, change)}
          />
        ))}
      </div>
      {confirmCard
        ? (
          <div class="modal-backdrop">
            <div
              class="modal"
              role="dialog"
              aria-modal="true"
              aria-labelledby="confirm-title"
              data-testid="confirm"
            >
              <h2 id="confirm-title">Switch on a 24 V output?</h2>
              <p>
                <strong>{confirmCard.label}</strong>{" "}
                ({confirmCard.type}) supplies 24 V. Make sure the connected device is rated for it.
              </p>
              <div class="modal-actions">
                <button
                  type="button"
                  class="danger"
                  data-testid="confirm-yes"
                  onClick={() => {
                    setConfirm(null);
                    switchTo(confirmCard, true, true);
                  }}
                >
                  Switch on
                </button>
                <button type="button" data-testid="confirm-no" onClick={() => setConfirm(null)}>
                  Cancel
                </button>
              </div>
            </div>
          </div>
        )
        : null}
    </div>
  );
}
