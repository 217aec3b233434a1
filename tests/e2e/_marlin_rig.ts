/**
 * The host's printer against the Marlin simulator on a real pseudo-terminal, for the printer's
 * scenario tests: the real `PrinterService` (a `MarlinSession` over `openSerialTransport`) with
 * the host's APIs in front of it, and `startMarlinSim()` behind the tty — no simulated-printer
 * shortcut. Requests go through the host's web app as `deno task host --no-ui` serves it.
 *
 * @module
 */
import { join } from "node:path";
import type { MarlinSessionOptions } from "../../lib/printer/marlin/mod.ts";
import type { PrinterEvent, PrinterState } from "../../lib/printer/printer.ts";
import { listSerialPorts, openSerialTransport } from "../../lib/printer/serial/mod.ts";
import { PrinterService, type PrinterServiceOptions } from "../../lib/printer/service.ts";
import { waitFor } from "../_helpers.ts";
import { type MarlinSim, type MarlinSimOptions, startMarlinSim } from "../doubles/marlin_sim.ts";
import { startTestHost, type TestHost } from "../lib/host/_helpers.ts";

/** Options of {@linkcode startRig}. */
export interface RigOptions {
  /** The simulator's options (speed 20 and a 120 s life unless given). */
  sim?: MarlinSimOptions;
  /** The session's options: shorter waits than the defaults, so that faults show in seconds. */
  session?: Omit<MarlinSessionOptions, "clock">;
  /** The job's scripts (the defaults unless given). */
  jobScripts?: PrinterServiceOptions["jobScripts"];
  /** Connect to the simulator at this baud rate through `POST /api/connection`. */
  connectAt?: number;
}

/** A reply of the host: its status and its JSON body (`{}` when none). */
export interface Reply {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** A running simulator, printer service and host. */
export interface Rig extends AsyncDisposable {
  sim: MarlinSim;
  printer: PrinterService;
  test: TestHost;
  /** Every event of the printer so far. */
  events: PrinterEvent[];
  /** The printer's states so far, in order. */
  states(): PrinterState[];
  /** A JSON request with the admin key. */
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  /** `GET /api/connection`'s `current`. */
  current(): Promise<Record<string, unknown>>;
  /** Uploads `text` as `name` through `POST /api/files/local` (multipart). */
  upload(name: string, text: string, fields?: Record<string, string>): Promise<Reply>;
  /**
   * Calls `act` with the line number the first time the host sends `command` (before the
   * printer reads it: a fault set now hits that very line).
   */
  onceSent(command: string, act: (n: number) => void): void;
  /** The commands the simulated firmware accepted that match `pattern`, in order. */
  accepted(pattern: RegExp): string[];
  /** Waits (bounded) until `check` holds. */
  until<T>(
    what: string,
    check: () => T | Promise<T>,
    timeoutMs?: number,
  ): Promise<Exclude<T, false | null | undefined | 0 | "">>;
}

/** The session's waits in these tests: a silent printer shows within seconds. */
export const QUICK_SESSION: Omit<MarlinSessionOptions, "clock"> = {
  startTimeoutMs: 1500,
  connectTimeoutMs: 3000,
  answerTimeoutMs: 3000,
  temperatureIntervalSeconds: 1,
};

/** Starts the simulator, a printer service on the real serial line and a host in front of it. */
export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const sim = await startMarlinSim({ speed: 20, maxSeconds: 120, ...options.sim });
  const dataDir = await Deno.makeTempDir({ prefix: "lb_marlin_rig_" });
  const printer = new PrinterService({
    openTransport: openSerialTransport,
    listPorts: async () => (await listSerialPorts({ extra: [sim.path] })).map((p) => p.path),
    session: { ...QUICK_SESSION, ...options.session },
    uploadsDir: join(dataDir, "host", "uploads"),
    jobScripts: options.jobScripts,
  });
  const events: PrinterEvent[] = [];
  printer.subscribe((event) => events.push(event));
  const test = await startTestHost({ printer, dataDir }).catch(async (err) => {
    await sim.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    throw err;
  });
  const call = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await test.request(path, {
      method,
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  };
  const rig: Rig = {
    sim,
    printer,
    test,
    events,
    states: () => events.flatMap((e) => e.type === "state" ? [e.state] : []),
    call,
    current: async () => (await call("GET", "/api/connection")).body.current,
    async upload(name, text, fields = {}) {
      const form = new FormData();
      form.append("file", new File([text], name));
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      const res = await test.request("/api/files/local", { method: "POST", body: form });
      return { status: res.status, body: await res.json() };
    },
    onceSent(command, act) {
      const stop = printer.subscribe((event) => {
        if (event.type !== "terminal" || event.line.direction !== "sent") return;
        const sent = /^N(\d+) (.*)\*\d+$/.exec(event.line.text);
        if (sent?.[2] !== command) return;
        stop();
        act(Number(sent[1]));
      });
    },
    accepted: (pattern) => sim.controls.firmware.commands.filter((c) => pattern.test(c)),
    until: (what, check, timeoutMs = 15_000) => waitFor(check, { what, timeoutMs }),
    async [Symbol.asyncDispose]() {
      await test.close().catch(() => {});
      await printer.close();
      await sim.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
  if (options.connectAt !== undefined) {
    const reply = await call("POST", "/api/connection", {
      command: "connect",
      port: sim.path,
      baudrate: options.connectAt,
    });
    if (reply.status !== 204) {
      await rig[Symbol.asyncDispose]();
      throw new Error(`connect: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
  }
  return rig;
}

/** A G-code file of `n` moves, each line told apart (`G1 X… Y… E…`). */
export function gcodeFile(n: number): { text: string; lines: string[] } {
  const lines = Array.from(
    { length: n },
    (_, i) => `G1 X${i % 50} Y${i % 37} E${(i * 0.05).toFixed(2)}`,
  );
  return { text: `; a test part\n${lines.join("\n")}\n`, lines };
}
