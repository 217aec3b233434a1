/**
 * Where the printer connection stands: the state, the reason of a failure in an alert (the host's
 * message says how to fix it), the port, baud rate and firmware, and whether updates are live.
 *
 * @module
 */
import { pushConnected } from "../lib/shared/push.ts";
import { codeParts, type ConnectionState, stateBadge } from "./connection_state.ts";

/** A message with its backtick-quoted parts as code. */
function Message({ text }: { text: string }) {
  return <>{codeParts(text).map((p, i) => p.code ? <code key={i}>{p.text}</code> : p.text)}</>;
}

/** The connection's state and details. */
export function ConnectionStatus({ s }: { s: ConnectionState }) {
  const current = s.info.value.current;
  const badge = stateBadge(current);
  const live = pushConnected.value;
  return (
    <div class="connection-status">
      <p class="status-line">
        <span class={`badge ${badge.tone}`} data-testid="connection-state">{badge.text}</span>
        <span class={`push-state ${live ? "on" : "off"}`}>
          {live ? "live updates" : "updates offline"}
        </span>
      </p>
      {current.error
        ? (
          <div class="banner banner-error" role="alert" data-testid="connection-error">
            <Message text={current.error} />
            {current.stateId === "ERROR" && s.props.canConnect
              ? <p>Disconnect, then connect again to restart the printer's board.</p>
              : null}
          </div>
        )
        : null}
      <dl class="connection-details">
        <dt>Port</dt>
        <dd data-testid="connection-port">{current.port ?? "none"}</dd>
        <dt>Baud rate</dt>
        <dd>{current.baudrate ?? "none"}</dd>
        <dt>Firmware</dt>
        <dd data-testid="firmware">
          {current.firmware ? current.firmware.name ?? "unnamed" : "not connected"}
        </dd>
      </dl>
    </div>
  );
}
