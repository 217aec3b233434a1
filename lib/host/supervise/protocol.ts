/**
 * The private channel between the launcher and the permission-scoped host it supervises: one JSON
 * object per line, the host writing to its standard output and reading its standard input. The
 * launcher prints every other line of the host's output as it is.
 *
 * Host → launcher: `listening` (address and the admin key of a first start), `probe` (run one of
 * a plugin's probes in a process allowed to reach `net` only), `restart` (the saved settings need
 * a wider scope). Launcher → host: `probe_result`, `log` (the launcher's own log lines, for the
 * host to append to its log file — `host.log`, or `errors.log` for a crash's stack: the launcher
 * may not write files).
 *
 * @module
 */

/** The key every message carries (so other output is never taken for one). */
export const CHANNEL_KEY = "localbench_host";

/** Messages of the host. */
export type HostMessage =
  | { type: "listening"; hostname: string; port: number; adminKey: string | null }
  | {
    type: "probe";
    id: number;
    plugin: string;
    probe: string;
    args: Record<string, unknown>;
    net: string[];
  }
  | { type: "restart"; reason: string };

/** Messages of the launcher. */
export type LauncherMessage =
  | { type: "probe_result"; id: number; result: Record<string, unknown> }
  | { type: "probe_result"; id: number; error: string }
  | { type: "log"; lines: string[]; file?: LogFileKind };

/** The log file a `log` message's lines go to: `host.log`, or `errors.log` (stacks). */
export type LogFileKind = "host" | "errors";

/** The launcher's answer to a `probe`. */
export type ProbeAnswer = Extract<LauncherMessage, { type: "probe_result" }>;

/** Encodes one message as a line. */
export function encodeMessage(message: HostMessage | LauncherMessage): string {
  return JSON.stringify({ [CHANNEL_KEY]: message }) + "\n";
}

/** Decodes a line: the message, or null for any other output. */
export function decodeMessage<T extends HostMessage | LauncherMessage>(line: string): T | null {
  if (!line.startsWith("{") || !line.includes(CHANNEL_KEY)) return null;
  try {
    const value = JSON.parse(line);
    const message = value?.[CHANNEL_KEY];
    return message && typeof message === "object" && typeof message.type === "string"
      ? message as T
      : null;
  } catch {
    return null;
  }
}

/** Reads a byte stream line by line (the last line may lack its newline). */
export async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
    }
  }
  buffered += decoder.decode();
  if (buffered !== "") yield buffered;
}

/** A `host:port` destination a probe may be allowed to reach (no list separators). */
export function isNetTarget(value: unknown): value is string {
  return typeof value === "string" && /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(value);
}
