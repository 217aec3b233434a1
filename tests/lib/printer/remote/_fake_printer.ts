/**
 * A `Printer` for the socket's tests: state set by hand, events emitted on demand, every call
 * recorded and answered as the test says.
 *
 * @module
 */
import type {
  ConnectionStatus,
  JobStatus,
  Printer,
  PrinterEvent,
  PrinterSnapshot,
  PrinterState,
  TemperatureSample,
  TerminalLine,
} from "../../../../lib/printer/printer.ts";
import type { Method } from "../../../../lib/printer/remote/mod.ts";
import { REPO_ROOT } from "../../../_helpers.ts";

/** A fake printer. */
export class FakePrinter implements Printer {
  connectionStatus: ConnectionStatus = {
    state: "OPERATIONAL",
    port: "/dev/ttyUSB0",
    baudrate: 115200,
    error: null,
    firmware: { name: "Marlin 2.1.2", capabilities: { AUTOREPORT_TEMP: true } },
  };
  current: PrinterSnapshot = {
    state: "OPERATIONAL",
    temperatures: { tool0: { actual: 21, target: 0 }, bed: { actual: 20.5, target: 0 } },
    time: 1_000,
  };
  jobStatus: JobStatus = {
    state: "OPERATIONAL",
    file: { name: "cube.gcode", size: 1200, origin: "local" },
    progress: { completion: 0, filepos: 0, lines: 0, printTime: null, printTimeLeft: null },
  };
  samples: TemperatureSample[] = [{ time: 1_000, temperatures: this.current.temperatures }];
  lines: TerminalLine[] = [{ time: 900, direction: "received", text: "start" }];
  /** How many samples and terminal lines are kept. */
  tailSize = 5;
  /** Calls received, in order. */
  calls: { method: Method; params: unknown[] }[] = [];
  /** What a method does instead of resolving with nothing (throw to fail). */
  answers: Partial<Record<Method, (...params: unknown[]) => unknown>> = {};
  #listeners = new Set<(event: PrinterEvent) => void>();

  /** Listeners subscribed now. */
  get listeners(): number {
    return this.#listeners.size;
  }

  emit(event: PrinterEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  /** Changes the state, as a printer does, and tells. */
  setState(state: PrinterState): void {
    const previous = this.current.state;
    this.current = { ...this.current, state };
    this.connectionStatus = { ...this.connectionStatus, state };
    this.jobStatus = { ...this.jobStatus, state };
    this.emit({ type: "state", state, previous });
  }

  /** A temperature report: a new snapshot and history sample, then the event. */
  report(tool0: number, bed: number): void {
    const temperatures = {
      tool0: { actual: tool0, target: this.current.temperatures.tool0?.target ?? 0 },
      bed: { actual: bed, target: this.current.temperatures.bed?.target ?? 0 },
    };
    this.current = { ...this.current, temperatures, time: this.current.time + 1000 };
    this.samples = [...this.samples, { time: this.current.time, temperatures }].slice(
      -this.tailSize,
    );
    this.emit({ type: "temperatures", snapshot: this.current });
  }

  /** A terminal line, kept and told. */
  say(text: string, direction: TerminalLine["direction"] = "received"): void {
    const line = { time: this.current.time, direction, text };
    this.lines = [...this.lines, line].slice(-this.tailSize);
    this.emit({ type: "terminal", line });
  }

  snapshot(): PrinterSnapshot {
    return this.current;
  }
  connection(): ConnectionStatus {
    return this.connectionStatus;
  }
  job(): JobStatus {
    return this.jobStatus;
  }
  history(): TemperatureSample[] {
    return this.samples.slice();
  }
  terminal(): TerminalLine[] {
    return this.lines.slice();
  }
  subscribe(listener: (event: PrinterEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #call(method: Method, params: unknown[]): Promise<unknown> {
    this.calls.push({ method, params });
    return Promise.try(() => this.answers[method]?.(...params));
  }

  async ports(): Promise<string[]> {
    return (await this.#call("ports", [])) as string[] ?? ["/dev/ttyUSB0", "VIRTUAL"];
  }
  async connect(options: { port: string; baudrate: number }): Promise<void> {
    await this.#call("connect", [options]);
  }
  async disconnect(): Promise<void> {
    await this.#call("disconnect", []);
  }
  async fakeAck(): Promise<void> {
    await this.#call("fakeAck", []);
  }
  async setTargets(targets: Record<string, number>): Promise<void> {
    await this.#call("setTargets", [targets]);
  }
  async commands(lines: string[]): Promise<void> {
    await this.#call("commands", [lines]);
  }
  async selectJob(name: string | null): Promise<void> {
    await this.#call("selectJob", [name]);
  }
  async startJob(name: string): Promise<void> {
    await this.#call("startJob", [name]);
  }
  async pauseJob(): Promise<void> {
    await this.#call("pauseJob", []);
  }
  async resumeJob(): Promise<void> {
    await this.#call("resumeJob", []);
  }
  async cancelJob(): Promise<void> {
    await this.#call("cancelJob", []);
  }
  async restartJob(): Promise<void> {
    await this.#call("restartJob", []);
  }
}

/** A temporary folder for sockets, removed on dispose. */
export async function socketDir(): Promise<{ dir: string; path: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "localbench-sock-" });
  return {
    dir,
    path: `${dir}/printer.sock`,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** Waits until `condition` holds (polling), failing after `ms`. */
export async function until(
  condition: () => boolean,
  ms = 5000,
  what = "condition",
): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Flags that allow the socket at `path` and nothing else. */
export function socketFlags(path: string): string[] {
  return [`--allow-read=${path}`, `--allow-write=${path}`, `--allow-net=unix:${path}`];
}

/** One end of the socket in its own process (`./_remote_process.ts`), under `flags` alone. */
export class EndProcess {
  readonly child: Deno.ChildProcess;
  #stdout = "";
  readonly #reading: Promise<void>;
  readonly #stderr: Promise<string>;
  #exited = false;

  constructor(
    mode: "serve" | "client",
    path: string,
    flags = socketFlags(path),
    extra: string[] = [],
  ) {
    const program = new URL("./_remote_process.ts", import.meta.url).pathname;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-prompt", ...flags, program, mode, path, ...extra],
      cwd: REPO_ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.child = child;
    child.status.then(() => this.#exited = true);
    this.#reading = (async () => {
      for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
        this.#stdout += text;
      }
    })();
    this.#stderr = new Response(child.stderr).text();
  }

  /** Waits until the process printed `text` (fails early when it ended without). */
  async waitFor(text: string): Promise<void> {
    await until(() => this.#stdout.includes(text) || this.#exited, 20_000, text);
    if (!this.#stdout.includes(text)) {
      const { stderr } = await this.end();
      throw new Error(`The process ended without printing '${text}': ${stderr}`);
    }
  }

  /** Closes its input (a server then stops) and waits for its end. */
  async end(): Promise<{ code: number; signal: string | null; stdout: string; stderr: string }> {
    await this.child.stdin.close().catch(() => undefined);
    const status = await this.child.status;
    await this.#reading;
    return {
      code: status.code,
      signal: status.signal,
      stdout: this.#stdout,
      stderr: await this.#stderr,
    };
  }
}
