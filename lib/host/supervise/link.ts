/**
 * The host's end of the private channel to its launcher (see `protocol.ts`): it announces its
 * address, asks for probes and for a restart under a wider scope, takes the launcher's log lines,
 * and notices when the launcher is gone (its standard input closes).
 *
 * @module
 */
import { UnavailableError } from "../../error.ts";
import {
  decodeMessage,
  encodeMessage,
  type HostMessage,
  type LauncherMessage,
  type LogFileKind,
  type ProbeAnswer,
  readLines,
} from "./protocol.ts";

/** A probe the launcher runs on the host's behalf. */
export interface ProbeRequest {
  plugin: string;
  probe: string;
  args: Record<string, unknown>;
  /** `host:port` destinations the probe process may reach (and nothing else). */
  net: string[];
}

/** Options of {@linkcode SupervisorLink}. */
export interface SupervisorLinkOptions {
  /** Where messages go. @default the process's standard output */
  write?(text: string): void;
  /** Where answers come from. @default the process's standard input */
  input?: ReadableStream<Uint8Array>;
  /** Called once when the launcher closes the channel. */
  onClose?(): void;
  /** Called with the launcher's log lines and the log file they go to. */
  onLog?(lines: string[], file: LogFileKind): void;
  /** Longest wait for a probe's answer. @default 20000 */
  probeTimeoutMs?: number;
}

/** The channel to the launcher. */
export class SupervisorLink {
  readonly #write: (text: string) => void;
  readonly #timeoutMs: number;
  #next = 1;
  #waiting = new Map<number, (m: ProbeAnswer) => void>();
  #closed = false;

  constructor(options: SupervisorLinkOptions = {}) {
    const encoder = new TextEncoder();
    this.#write = options.write ?? ((text) => Deno.stdout.writeSync(encoder.encode(text)));
    this.#timeoutMs = options.probeTimeoutMs ?? 20_000;
    this.#listen(options.input ?? Deno.stdin.readable, options);
  }

  async #listen(
    input: ReadableStream<Uint8Array>,
    { onClose, onLog }: SupervisorLinkOptions,
  ): Promise<void> {
    try {
      for await (const line of readLines(input)) {
        const message = decodeMessage<LauncherMessage>(line);
        if (message?.type === "probe_result") this.#waiting.get(message.id)?.(message);
        else if (message?.type === "log" && Array.isArray(message.lines)) {
          const file = message.file === "errors" ? "errors" : "host";
          onLog?.(message.lines.filter((l) => typeof l === "string"), file);
        }
      }
    } catch {
      // A broken pipe is a closed channel.
    }
    this.#closed = true;
    for (const answer of this.#waiting.values()) {
      answer({ type: "probe_result", id: 0, error: "the launcher is gone" });
    }
    onClose?.();
  }

  #send(message: HostMessage): void {
    if (this.#closed) throw new UnavailableError("Cannot reach the launcher: it is gone");
    this.#write(encodeMessage(message));
  }

  /** Tells the launcher the address the host listens on (and a first start's admin key). */
  listening(hostname: string, port: number, adminKey: string | null): void {
    this.#send({ type: "listening", hostname, port, adminKey });
  }

  /** Asks the launcher to restart the host under the scope of the saved settings. */
  restart(reason: string): void {
    this.#send({ type: "restart", reason });
  }

  /**
   * Runs a plugin's probe in a process of the launcher's that may reach `net` only.
   *
   * @throws {UnavailableError} when the launcher is gone, does not answer, or the probe failed.
   */
  probe(request: ProbeRequest): Promise<Record<string, unknown>> {
    const id = this.#next++;
    const { promise, resolve } = Promise.withResolvers<ProbeAnswer>();
    const timer = setTimeout(
      () => resolve({ type: "probe_result", id, error: "no answer from the launcher" }),
      this.#timeoutMs,
    );
    this.#waiting.set(id, resolve);
    try {
      this.#send({ type: "probe", id, ...request });
    } catch (err) {
      clearTimeout(timer);
      this.#waiting.delete(id);
      return Promise.reject(err);
    }
    return promise.then((answer) => {
      clearTimeout(timer);
      this.#waiting.delete(id);
      if ("error" in answer) throw new UnavailableError(`Cannot run the probe: ${answer.error}`);
      return answer.result;
    });
  }
}
