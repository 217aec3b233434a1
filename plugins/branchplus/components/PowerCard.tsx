/**
 * One channel card of the power panel: type badge, editable label, auto/manual switch, on/off,
 * the rule matrix, the temperature rule and the failsafe.
 *
 * @module
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { RuleAction, TempRule } from "../channel_config.ts";
import { type CardView, MATRIX_STATES, RULE_ACTIONS } from "../panel_client.ts";

/** Text of the state chips. */
export const CHIP_TEXT = { on: "ON", off: "OFF", unknown: "?" } as const;

/** Props of {@linkcode PowerCard}. */
export interface PowerCardProps {
  card: CardView;
  connected: boolean;
  waiting: 0 | 1 | undefined;
  error: string | undefined;
  onSwitch(on: boolean): void;
  onMode(mode: "auto" | "manual"): void;
  onLabel(label: string): void;
  onConfig(change: Record<string, unknown>): void;
  /** The user may look but not switch (no CONTROL permission): every control is disabled. */
  readOnly?: boolean;
}

/** One channel's card. */
export function PowerCard(
  { card, connected, waiting, error, onSwitch, onMode, onLabel, onConfig, readOnly = false }:
    PowerCardProps,
) {
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
      <fieldset class="power-fieldset" disabled={readOnly}>
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
        <fieldset class={manual ? "rules idle" : "rules"}>
          <legend>
            Rules (auto mode){manual ? <span class="hint">, not applied while manual</span> : null}
          </legend>
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
      </fieldset>
      {error ? <p class="error" role="alert" data-testid="card-error">{error}</p> : null}
    </article>
  );
}

/**
 * The editable label: keeps what the user types while the field has focus (live updates of the
 * channel do not overwrite it) and saves on Enter or when the field loses focus.
 */
function LabelInput({ label, onCommit }: { label: string; onCommit(label: string): void }) {
  const draft = useSignal(label);
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) draft.value = label;
  }, [label]);
  return (
    <input
      class="label-input"
      aria-label="Label"
      maxLength={64}
      value={draft.value}
      data-testid="label"
      onFocus={() => {
        editing.current = true;
      }}
      onInput={(e) => draft.value = (e.target as HTMLInputElement).value}
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
