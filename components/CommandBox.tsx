/**
 * The terminal's command box: one line of G-code sent to the printer (`M105`, `G28`); the box is
 * emptied at once so the next can be typed while the printer answers, and a refused command
 * shows the host's message.
 *
 * @module
 */
import type { ConnectionState } from "./connection_state.ts";

/** The command box. */
export function CommandBox({ s }: { s: ConnectionState }) {
  return (
    <form
      class="command-box"
      onSubmit={(ev) => {
        ev.preventDefault();
        void s.send();
      }}
    >
      <label for="terminal-command">Command</label>
      <div class="command-row">
        <input
          id="terminal-command"
          class="mono"
          value={s.command.value}
          placeholder="M105"
          maxLength={256}
          autocomplete="off"
          spellcheck={false}
          onInput={(ev) => s.command.value = ev.currentTarget.value}
        />
        <button type="submit" data-testid="send-command">Send</button>
      </div>
      {s.commandError.value
        ? <p class="error" role="alert" data-testid="command-error">{s.commandError.value}</p>
        : null}
    </form>
  );
}
