import { useEffect, useRef, useState } from "preact/hooks";
import type { ChannelConfig, RuleAction, TempRule } from "../plugins/branchplus/channel_config.ts";
import type { ChannelKind } from "../plugins/branchplus/layout.ts";
import {
  applyPush,
  needsConfirmation,
  type PanelState,
  panelStateFrom,
} from "../plugins/branchplus/panel_state.ts";
import {
  type CardView,
  cardViews,
  failureText,
  MATRIX_STATES,
  patchConfig,
  POWER_API,
  type PowerStatus,
  replaceConfig,
  RULE_ACTIONS,
  sendCommand,
} from "../plugins/branchplus/panel_client.ts";
import { openPush } from "../lib/shared/push_client.ts";

/** Props of the power panel. */
export interface PowerPanelProps {
  csrfToken: string;
}

const CHIP_TEXT = { on: "ON", off: "OFF", unknown: "?" } as const;

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

  const switchTo = async (card: CardView, on: boolean) => {
    setWaiting((w) => ({ ...w, [card.key]: on ? 1 : 0 }));
    const answer = await run(card, { command: "set_channel", on });
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
          <Card
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
                    switchTo(confirmCard, true);
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

interface CardProps {
  card: CardView;
  connected: boolean;
  waiting: 0 | 1 | undefined;
  error: string | undefined;
  onSwitch(on: boolean): void;
  onMode(mode: "auto" | "manual"): void;
  onLabel(label: string): void;
  onConfig(change: Record<string, unknown>): void;
}

function Card({ card, connected, waiting, error, onSwitch, onMode, onLabel, onConfig }: CardProps) {
  const manual = card.mode === "manual";
  const on = card.chip === "on";
  const temp = card.tempRule;
  const setTemp = (patch: Partial<TempRule>) => onConfig({ temp_rule: { ...temp, ...patch } });
  return (
    <article
      class={`power-card chip-${card.chip}`}
      data-testid={`channel-${card.kind}-${card.id}`}
      data-state={card.chip}
    >
      <header>
        <span class={`badge badge-${card.kind}`}>{card.type}</span>
        <LabelInput label={card.label} onCommit={onLabel} />
        <span class={`chip chip-${card.chip}`} data-testid="state">{CHIP_TEXT[card.chip]}</span>
      </header>
      <div class="power-row">
        <div class="segmented" role="radiogroup" aria-label="Mode">
          {(["auto", "manual"] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              aria-checked={card.mode === m}
              class={card.mode === m ? "selected" : ""}
              data-testid={`mode-${m}`}
              onClick={() => card.mode !== m && onMode(m)}
            >
              {m === "auto" ? "Auto" : "Manual"}
            </button>
          ))}
        </div>
        <button
          type="button"
          class={on ? "power-btn is-on" : "power-btn"}
          data-testid="power"
          disabled={!connected || !manual || waiting !== undefined}
          title={manual ? "" : "Switch to manual to control by hand"}
          onClick={() => onSwitch(!on)}
        >
          {on ? "Switch off" : "Switch on"}
        </button>
        {waiting !== undefined
          ? <span class="hint" data-testid="waiting">waiting for the hub…</span>
          : null}
      </div>
      <fieldset class={manual ? "rules muted" : "rules"}>
        <legend>Rules (auto mode)</legend>
        <div class="matrix">
          {MATRIX_STATES.map((state) => (
            <label key={state}>
              <span>{state}</span>
              <select
                value={card.rules[state]}
                data-testid={`rule-${state}`}
                onChange={(e) =>
                  onConfig({
                    rules: { [state]: (e.target as HTMLSelectElement).value as RuleAction },
                  })}
              >
                {RULE_ACTIONS.map((a) => <option key={a} value={a}>{a}</option>)}
              </select>
            </label>
          ))}
        </div>
        <div class="temp-rule">
          <label>
            <input
              type="checkbox"
              checked={temp.enabled}
              data-testid="temp-enabled"
              onChange={() => setTemp({ enabled: !temp.enabled })}
            />{" "}
            Temp
          </label>
          <select
            aria-label="Sensor"
            value={temp.sensor}
            disabled={!temp.enabled}
            onChange={(e) =>
              setTemp({ sensor: (e.target as HTMLSelectElement).value as TempRule["sensor"] })}
          >
            <option value="bed">bed</option>
            <option value="tool">tool</option>
            <option value="chamber">chamber</option>
          </select>
          <span>≥</span>
          <input
            type="number"
            aria-label="Threshold °C"
            class="threshold"
            value={temp.threshold}
            step="1"
            disabled={!temp.enabled}
            onChange={(e) => {
              const n = Number((e.target as HTMLInputElement).value);
              if (Number.isFinite(n)) setTemp({ threshold: n });
            }}
          />
          <span>°C →</span>
          <select
            aria-label="Above the threshold"
            value={temp.above}
            disabled={!temp.enabled}
            onChange={(e) =>
              setTemp({ above: (e.target as HTMLSelectElement).value as TempRule["above"] })}
          >
            <option value="on">on</option>
            <option value="off">off</option>
          </select>
        </div>
      </fieldset>
      <label class="failsafe">
        Failsafe on shutdown{" "}
        <select
          value={card.failsafe}
          data-testid="failsafe"
          onChange={(e) => onConfig({ failsafe: (e.target as HTMLSelectElement).value })}
        >
          <option value="off">off</option>
          <option value="on">on</option>
          <option value="hold">hold</option>
        </select>
      </label>
      {error ? <p class="error" role="alert" data-testid="card-error">{error}</p> : null}
    </article>
  );
}

/**
 * The editable label: keeps what the user types while the field has focus (live updates of the
 * channel do not overwrite it) and saves on Enter or when the field loses focus.
 */
function LabelInput({ label, onCommit }: { label: string; onCommit(label: string): void }) {
  const [draft, setDraft] = useState(label);
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) setDraft(label);
  }, [label]);
  return (
    <input
      class="label-input"
      aria-label="Label"
      maxLength={64}
      value={draft}
      data-testid="label"
      onFocus={() => {
        editing.current = true;
      }}
      onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
      onBlur={(e) => {
        editing.current = false;
        onCommit((e.target as HTMLInputElement).value);
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter") (e.target as HTMLInputElement).blur();
      }}
    />
  );
}
