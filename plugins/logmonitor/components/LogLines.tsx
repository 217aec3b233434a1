/**
 * A table of log entries: time, level, logger (with the source file of a multi-file tail) and
 * message.
 *
 * @module
 */
import type { ClientLine } from "../browser_api.ts";

/** Log entries as a table. */
export function LogLines({ lines, testId }: { lines: ClientLine[]; testId: string }) {
  return (
    <table class="log-lines" data-testid={testId}>
      <tbody>
        {lines.map((l, i) => (
          <tr key={i} class={`level-${l.level.toLowerCase()}`}>
            <td class="ts">{l.timestamp}</td>
            <td class="lv">{l.level}</td>
            <td class="lg">{l._source_file ? `${l._source_file}: ${l.logger}` : l.logger}</td>
            <td class="msg">{l.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
