/**
 * A scripted Marlin behind an in-memory {@linkcode PrinterTransport}, for the protocol's tests:
 * it checks line numbers and checksums as Marlin does (and asks for resends), answers `ok`,
 * `M115` and `M105`, and lets a test print any line, corrupt a line, stay silent or unplug.
 * The pseudo-terminal simulator with heater physics is `tests/doubles/`; this one is small.
 *
 * @module
 */
import { checksum } from "../../../../lib/printer/marlin/framing.ts";
import type { PrinterTransport } from "../../../../lib/printer/transport.ts";

/** Answers a command (without its number and checksum): the lines to print, or null for none. */
export type Handler = (command: string) => string[] | null;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const FIRMWARE_LINE = "FIRMWARE_NAME:Marlin 2.1.2.1 (Jul 11 2023 12:00:00) " +
  "SOURCE_CODE_URL:github.com/MarlinFirmware/Marlin PROTOCOL_VERSION:1.0 " +
  "MACHINE_TYPE:Ender-3 EXTRUDER_COUNT:1 UUID:cede2a2f-41a2-4748-9b12-c55c62f367ff";

/** The fake printer; it is the transport the session is given. */
export class FakeMarlin implements PrinterTransport {
  readonly readable: ReadableStream<Uint8Array>;
  /** Every line the host wrote, as written. */
  readonly received: string[] = [];
  /** The commands it accepted (number and checksum right), without number and checksum. */
  readonly accepted: string[] = [];
  /** Handlers by command word (`G28`); they replace the default answer. */
  readonly handlers = new Map<string, Handler>();
  /** `Cap:` lines of `M115`. */
  capabilities: Record<string, boolean> = { AUTOREPORT_TEMP: false, EMERGENCY_PARSER: true };
  /** Reads nothing and answers nothing (a printer that hangs). */
  silent = false;
  closed = false;
  #lastN = 0;
  #corrupt = 0;
  #controller!: ReadableStreamDefaultController<Uint8Array>;

  constructor() {
    this.readable = new ReadableStream({ start: (c) => void (this.#controller = c) });
  }

  /** Prints lines, each with `\n`. */
  say(...lines: string[]): void {
    this.sayRaw(lines.map((line) => `${line}\n`).join(""));
  }

  /** Prints bytes as they are. */
  sayRaw(data: string | Uint8Array): void {
    if (this.closed) return;
    this.#controller.enqueue(typeof data === "string" ? encoder.encode(data) : data);
  }

  /** Prints what a board prints after a reset (its line numbering starts again). */
  boot(): void {
    this.#lastN = 0;
    this.say("start", "echo:Marlin 2.1.2.1", "echo: Last Updated: 2023-07-11 | Author: (none)");
  }

  /** The next `count` numbered lines arrive garbled: a checksum mismatch and a resend request. */
  garbleNext(count = 1): void {
    this.#corrupt += count;
  }

  /** The USB cable is pulled: the stream ends. */
  unplug(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.#controller.close();
    } catch {
      // the reader cancelled the stream already
    }
  }

  write(data: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new Error("write on a closed line"));
    for (const line of decoder.decode(data).split("\n").filter((l) => l !== "")) {
      this.received.push(line);
      if (!this.silent) this.#take(line);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.unplug();
    return Promise.resolve();
  }

  #take(line: string): void {
    let command = line;
    const numbered = line.match(/^N(-?\d+) (.*)\*(\d+)$/);
    if (numbered) {
      const [, n, body, sum] = numbered;
      const m110 = body!.match(/^M110 N(\d+)/);
      const lineNumber = Number(m110 ? m110[1] : n);
      if (!m110 && lineNumber !== this.#lastN + 1) {
        return this.#reject("Line Number is not Last Line Number+1");
      }
      if (this.#corrupt > 0 || checksum(`N${n} ${body}`) !== Number(sum)) {
        this.#corrupt = Math.max(0, this.#corrupt - 1);
        return this.#reject("checksum mismatch");
      }
      this.#lastN = lineNumber;
      command = body!;
    }
    this.accepted.push(command);
    const word = command.split(" ")[0]!.toUpperCase();
    const answer = (this.handlers.get(word) ?? ((c) => this.#default(c)))(command);
    if (answer) this.say(...answer);
  }

  #reject(error: string): void {
    this.say(`Error:${error}, Last Line: ${this.#lastN}`, `Resend: ${this.#lastN + 1}`, "ok");
  }

  #default(command: string): string[] {
    if (command.startsWith("M115")) {
      const caps = Object.entries(this.capabilities).map(([k, v]) => `Cap:${k}:${v ? 1 : 0}`);
      return [FIRMWARE_LINE, ...caps, "ok"];
    }
    if (command.startsWith("M105")) return ["ok T:20.3 /0.0 B:19.2 /0.0 @:0 B@:0"];
    return ["ok"];
  }
}

/** Lets the streams and promises of a test settle (a few macrotask turns). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
