/**
 * The printer's connection page: the state and the connect form (for CONNECTION; others see the
 * state only), and the terminal with its command box (for CONTROL), updated live over the push
 * socket. Its state is signals (`components/connection_state.ts`); each part is a component.
 *
 * @module
 */
import { useEffect, useMemo } from "preact/hooks";
import { CommandBox } from "../components/CommandBox.tsx";
import { ConnectionForm } from "../components/ConnectionForm.tsx";
import { ConnectionStatus } from "../components/ConnectionStatus.tsx";
import { type ConnectionPageProps, createConnectionState } from "../components/connection_state.ts";
import { PrinterTerminal } from "../components/PrinterTerminal.tsx";

/** The connection page's island. */
export default function PrinterConnection(props: ConnectionPageProps) {
  const s = useMemo(() => createConnectionState(props), []);
  useEffect(() => s.follow(), [s]);
  return (
    <div class="connection-page">
      <section class="card" aria-labelledby="connection-heading">
        <h2 id="connection-heading">Connection</h2>
        <ConnectionStatus s={s} />
        {props.canConnect
          ? <ConnectionForm s={s} />
          : <p class="hint">Connecting and disconnecting need the permission CONNECTION.</p>}
      </section>
      <section class="card" aria-labelledby="terminal-heading">
        <h2 id="terminal-heading">Terminal</h2>
        <PrinterTerminal s={s} />
        {props.canControl
          ? <CommandBox s={s} />
          : <p class="hint">Sending commands needs the permission CONTROL.</p>}
      </section>
    </div>
  );
}
