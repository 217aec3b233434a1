/**
 * The connect form: the port (those offered, or any other path such as a pseudo-terminal), the
 * baud rate, "save as default" and "connect at start", and the Connect and Disconnect buttons
 * (Connect while offline, Disconnect while a line is open or opening; the fields apply to the
 * next connect). A refusal the connection does not already show appears under the buttons.
 *
 * @module
 */
import { type ConnectForm, type ConnectionState, OTHER_PORT } from "./connection_state.ts";

/** The connect form. */
export function ConnectionForm({ s }: { s: ConnectionState }) {
  const form = s.form.value;
  const { ports, baudrates } = s.info.value.options;
  const offline = s.phase.value === "offline";
  const locked = !offline || s.busy.value;
  const set = (patch: Partial<ConnectForm>) => s.form.value = { ...s.form.value, ...patch };
  // A port chosen before the list changed stays selectable.
  const choices = form.port === OTHER_PORT || ports.includes(form.port)
    ? ports
    : [form.port, ...ports];
  const refused = s.actionError.value;
  return (
    <form
      class="connection-form"
      onSubmit={(ev) => {
        ev.preventDefault();
        void s.connect();
      }}
    >
      <div class="fields">
        <div class="field">
          <label for="connection-port">Serial port</label>
          <select
            id="connection-port"
            value={form.port}
            disabled={locked}
            onChange={(ev) => set({ port: ev.currentTarget.value })}
          >
            {choices.map((p) => <option key={p} value={p}>{p}</option>)}
            <option value={OTHER_PORT}>Other path…</option>
          </select>
        </div>
        {form.port === OTHER_PORT
          ? (
            <div class="field">
              <label for="connection-other-port">Port path</label>
              <input
                id="connection-other-port"
                class="mono"
                value={form.otherPort}
                placeholder="/dev/ttyUSB0"
                autocomplete="off"
                spellcheck={false}
                disabled={locked}
                onInput={(ev) => set({ otherPort: ev.currentTarget.value })}
              />
            </div>
          )
          : null}
        <div class="field">
          <label for="connection-baudrate">Baud rate</label>
          <select
            id="connection-baudrate"
            value={form.baudrate}
            disabled={locked}
            onChange={(ev) => set({ baudrate: ev.currentTarget.value })}
          >
            <option value="">Auto</option>
            {baudrates.map((b) => <option key={b} value={String(b)}>{b}</option>)}
          </select>
        </div>
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={form.save}
          disabled={locked}
          onChange={(ev) => set({ save: ev.currentTarget.checked })}
        />
        Save as default
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={form.autoconnect}
          disabled={locked}
          onChange={(ev) => set({ autoconnect: ev.currentTarget.checked })}
        />
        Connect at start
      </label>
      <div class="buttons">
        <button type="submit" disabled={locked} data-testid="connect">
          {s.phase.value === "connecting" ? "Connecting…" : "Connect"}
        </button>
        <button
          type="button"
          class="secondary"
          disabled={offline}
          data-testid="disconnect"
          onClick={() => void s.disconnect()}
        >
          Disconnect
        </button>
      </div>
      {refused && refused !== s.info.value.current.error
        ? <p class="error" role="alert" data-testid="connection-refused">{refused}</p>
        : null}
    </form>
  );
}
