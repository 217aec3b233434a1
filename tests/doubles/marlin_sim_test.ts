/**
 * The simulator through a real tty, as a host sees it. The framing (line numbers, checksums,
 * resends) is written here, not imported from `lib/printer/`, so the simulator is tested as an
 * independent peer of the host's code.
 */
import assert from "node:assert/strict";
import { waitFor } from "../_helpers.ts";
import { type MarlinSim, type MarlinSimOptions, startMarlinSim } from "./marlin_sim.ts";

const encoder = new TextEncoder();

/**
 * A minimal host. Two handles on the tty: on one Deno FsFile a pending read blocks a write. It
 * reads only when asked: a read Deno has started on a tty is not interrupted by cancel or close,
 * and would swallow the next bytes (the next host's `ok`) after this host closed.
 */
class Host {
  /** Every line received, in order. */
  readonly lines: string[] = [];
  /** Every byte received. */
  readonly bytes: number[] = [];
  /** The index of the next line {@linkcode next} returns. */
  cursor = 0;
  /** The next line number, and what was sent under each. */
  n = 0;
  readonly sent = new Map<number, string>();
  #rest = "";
  #ended = false;
  #pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;

  private constructor(input: Deno.FsFile, readonly output: Deno.FsFile) {
    this.#reader = input.readable.getReader();
  }

  static async open(path: string): Promise<Host> {
    return new Host(await Deno.open(path, { read: true }), await Deno.open(path, { write: true }));
  }

  /** Reads one chunk; false when nothing came before `end` or the tty ended (EIO). */
  async #fill(end: number): Promise<boolean> {
    if (this.#ended) return false;
    this.#pending ??= this.#reader.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) =>
      timer = setTimeout(() => resolve(null), end - Date.now())
    );
    const result = await Promise.race([this.#pending, late]).catch(() => ({ done: true as const }));
    clearTimeout(timer);
    if (result === null) return false;
    this.#pending = null;
    if (result.done) {
      this.#ended = true;
      return false;
    }
    this.bytes.push(...result.value);
    const parts = (this.#rest + String.fromCharCode(...result.value)).split("\n");
    this.#rest = parts.pop()!;
    this.lines.push(...parts);
    return true;
  }

  /** The next line, or null when the tty ended or nothing came within `ms`. */
  async next(ms = 10_000): Promise<string | null> {
    const end = Date.now() + ms;
    while (this.cursor >= this.lines.length && await this.#fill(end));
    return this.cursor < this.lines.length ? this.lines[this.cursor++]! : null;
  }

  /** Reads until `count` bytes came in all. */
  async readBytes(count: number, ms = 10_000): Promise<void> {
    const end = Date.now() + ms;
    while (this.bytes.length < count) {
      if (!await this.#fill(end)) throw new Error(`${this.bytes.length} of ${count} bytes`);
    }
  }

  /** Reads lines until one matches; returns the lines read, the match last. */
  async until(match: RegExp | string, ms = 10_000): Promise<string[]> {
    const seen: string[] = [];
    for (;;) {
      const line = await this.next(ms);
      if (line === null) throw new Error(`no '${match}' after: ${seen.join(" | ")}`);
      seen.push(line);
      if (typeof match === "string" ? line === match : match.test(line)) return seen;
    }
  }

  write(text: string): Promise<number> {
    return this.output.write(encoder.encode(text));
  }

  /** Sends `N<n> command*cs`. */
  send(command: string, n = this.n++): Promise<number> {
    this.sent.set(n, command);
    const text = `N${n} ${command}`;
    const cs = [...text].reduce((x, c) => x ^ c.charCodeAt(0), 0);
    return this.write(`${text}*${cs}\n`);
  }

  /** Sends a numbered command and reads to its `ok`, resending what the printer asks for (and
   * reading an `ok` for each line resent). */
  async command(command: string): Promise<string[]> {
    await this.send(command);
    const seen: string[] = [];
    for (let waiting = 1; waiting > 0;) {
      const lines = await this.until(/^ok\b/);
      seen.push(...lines);
      waiting--;
      const resend = lines.map((l) => /^Resend: ?(\d+)/.exec(l)).find((m) => m);
      if (!resend) continue;
      const from = Number(resend[1]);
      for (let k = from; k < this.n; k++) await this.send(this.sent.get(k)!, k);
      waiting = this.n - from;
    }
    return seen;
  }

  /** `N0 M110 N0*125` → ok, as a host does after `start`. */
  async handshake(): Promise<void> {
    this.n = 0;
    await this.send("M110 N0");
    await this.until("ok");
  }

  async close(): Promise<void> {
    this.output.close();
    await this.#reader.cancel().catch(() => {});
  }
}

async function withSim(
  options: MarlinSimOptions,
  body: (sim: MarlinSim) => Promise<void>,
): Promise<void> {
  const sim = await startMarlinSim({ speed: 20, maxSeconds: 120, ...options });
  try {
    await body(sim);
  } finally {
    await sim.close();
  }
}

Deno.test("a host opening the tty sees start and the banner, then numbered lines get ok", async () => {
  await withSim({}, async (sim) => {
    const host = await Host.open(sim.path);
    const banner = await host.until("echo:SD card ok");
    assert.equal(banner[0], "start");
    assert.ok(banner.includes("echo:Marlin 2.1.2"));
    assert.ok(sim.controls.connected);
    assert.equal(sim.controls.opens, 1);
    await host.handshake();
    const m115 = await host.command("M115");
    assert.match(m115[0]!, /^FIRMWARE_NAME:Marlin 2\.1\.2 .*EXTRUDER_COUNT:1/);
    assert.ok(m115.includes("Cap:AUTOREPORT_TEMP:1") && m115.includes("Cap:EMERGENCY_PARSER:1"));
    assert.ok(m115.includes("Cap:SDCARD:1"));
    const [m105] = await host.command("M105");
    assert.match(
      m105!,
      /^ok T:\d+\.\d\d \/0\.00 B:\d+\.\d\d \/0\.00 C:\d+\.\d\d \/0\.00 @:0 B@:0 C@:0$/,
    );
    assert.deepEqual(await host.command("M4242"), ['echo:Unknown command: "M4242"', "ok"]);
    assert.deepEqual(sim.controls.firmware.commands, ["M110 N0", "M115", "M105", "M4242"]);
    await host.close();
  });
});

Deno.test("M155 auto-reports and M109 heats with temperature and busy lines, sped up", async () => {
  await withSim({ speed: 100 }, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start");
    await host.handshake();
    await host.command("M155 S2");
    const report = (await host.until(/^ T:/))[0];
    assert.match(report!, /^ T:\d+\.\d\d \/0\.00 B:/);
    const started = performance.now();
    const heating = await host.command("M109 S200");
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 10, `${seconds} s real for about 100 s of heating`);
    assert.ok(heating.includes("echo:busy: processing"));
    assert.ok(heating.some((l) => / T:\d+\.\d\d \/200\.00 .* W:\?$/.test(l)));
    assert.ok(heating.some((l) => / W:0$/.test(l)));
    assert.ok(Math.abs(sim.controls.heaters.hotend.reading - 200) < 3);
    await host.close();
  });
});

Deno.test("advance jumps simulated time: the bed is hot at once, even at real-time speed", async () => {
  await withSim({ speed: 1 }, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start", 5000);
    await host.handshake();
    await host.command("M140 S60");
    sim.controls.advance(600);
    const [m105] = await host.command("M105");
    const bed = Number(/ B:(\d+\.\d\d) \/60\.00/.exec(m105!)?.[1]);
    assert.ok(Math.abs(bed - 60) < 3, String(m105));
    await host.close();
  });
});

Deno.test("a board that does not reset on open answers without start; its line number goes on", async () => {
  await withSim({ resetOnOpen: false }, async (sim) => {
    const first = await Host.open(sim.path);
    await first.handshake();
    assert.deepEqual(first.lines, ["ok"], "no start, no banner");
    await first.command("M140 S50");
    await first.close();
    await waitFor(() => !sim.controls.connected, "the close seen");
    const second = await Host.open(sim.path);
    second.n = 2;
    const [m105] = await second.command("M105");
    assert.match(m105!, /^ok T:.* B:\d+\.\d\d \/50\.00 /, "the target survived the reopen");
    assert.deepEqual(second.lines, [m105]);
    assert.equal(sim.controls.opens, 2);
    await second.close();
  });
});

Deno.test("a refused checksum is answered with Error, Resend and ok, and the host's resend is taken", async () => {
  await withSim({}, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start");
    await host.handshake();
    await host.command("G1 X1");
    sim.controls.failNext(2);
    const answer = await host.command("G1 X2");
    assert.deepEqual(answer, [
      "Error:checksum mismatch, Last Line: 1",
      "Resend: 2",
      "ok",
      "Error:checksum mismatch, Last Line: 1",
      "Resend: 2",
      "ok",
      "ok",
    ]);
    sim.controls.resendFrom(1);
    const again = await host.command("G1 X3");
    assert.deepEqual(again, [
      "Error:Line Number is not Last Line Number+1, Last Line: 0",
      "Resend: 1",
      "ok",
      "ok",
      "ok",
      "ok",
    ], "one ok for the refusal, then one for each of lines 1, 2 and 3");
    assert.deepEqual(sim.controls.firmware.commands, [
      "M110 N0",
      "G1 X1",
      "G1 X2",
      "G1 X1",
      "G1 X2",
      "G1 X3",
    ]);
    await host.close();
  });
});

Deno.test("busy holds the next command with echo:busy: processing, then answers ok", async () => {
  await withSim({}, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start");
    await host.handshake();
    sim.controls.busy(5);
    const answer = await host.command("G1 X1");
    assert.equal(answer.at(-1), "ok");
    const busy = answer.slice(0, -1);
    assert.ok(busy.length >= 2, "about every 2 s of 5 (exact counts: marlin_firmware_test.ts)");
    assert.ok(busy.every((line) => line === "echo:busy: processing"), answer.join(" | "));
    await host.close();
  });
});

Deno.test("a reset mid-connection prints start and the banner again and forgets the line number", async () => {
  await withSim({}, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start");
    await host.handshake();
    for (const x of [1, 2, 3]) await host.command(`G1 X${x}`);
    sim.controls.reset();
    const banner = await host.until("echo:SD card ok");
    assert.equal(banner[0], "start");
    await host.send("G1 X4");
    assert.deepEqual(await host.until("ok"), [
      "Error:Line Number is not Last Line Number+1, Last Line: 0",
      "Resend: 1",
      "ok",
    ]);
    await host.handshake();
    assert.deepEqual(await host.command("G1 X4"), ["ok"]);
    await host.close();
  });
});

Deno.test("at a wrong baud rate the host reads garbage and is not understood", async () => {
  await withSim({ baudRate: 115200 }, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start");
    await host.handshake();
    const stty = (baud: string) =>
      new Deno.Command("stty", { args: ["-F", sim.path, baud] }).output();
    await stty("57600");
    await waitFor(() => sim.controls.hostBaudRate === 57600, "57600 read from the tty");
    const before = host.bytes.length;
    const said = "echo:this line is sent at 115200 baud to a host that set 57600 on its tty";
    sim.controls.say(said);
    await host.readBytes(before + said.length + 1);
    const received = host.bytes.slice(before);
    assert.equal(received.length, said.length + 1, "as many bytes, all wrong");
    assert.ok(received.filter((b) => b >= 0x80).length > 10, "bytes outside ASCII");
    assert.ok(!String.fromCharCode(...received).includes("echo:"));
    await host.send("M105");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(sim.controls.firmware.commands, ["M110 N0"], "M105 was not understood");
    await stty("115200");
    await waitFor(() => sim.controls.hostBaudRate === 115200, "115200 read from the tty");
    sim.controls.say("echo:readable again");
    await host.until(/echo:readable again$/);
    await host.handshake();
    const [m105] = await host.command("M105");
    assert.match(m105!, /^ok T:/);
    sim.controls.setHostBaudRate(250000);
    await host.send("M105");
    assert.equal(
      await host.next(300),
      null,
      "a rate the test gives counts too: nothing understood",
    );
    await host.close();
  });
});

Deno.test("an unplugged printer fails the host's read and cannot be opened until it comes back", async () => {
  await withSim({}, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start");
    await host.handshake();
    await sim.controls.unplug();
    assert.equal(await host.next(5000), null, "the read ends");
    await assert.rejects(Deno.open(sim.path, { read: true }), Deno.errors.NotFound);
    await host.close();
    await sim.controls.replug();
    const again = await Host.open(sim.path);
    assert.equal((await again.until("start")).at(-1), "start", "a reopened board resets");
    await again.handshake();
    assert.deepEqual(await again.command("M27"), ["Not SD printing", "ok"]);
    await again.close();
  });
});

Deno.test("a halt prints kill() called (or !!) and the board then stays silent", async () => {
  await withSim({}, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start");
    await host.handshake();
    sim.controls.halt();
    assert.deepEqual(await host.until(/^Error:Printer halted/), [
      "Error:Printer halted. kill() called!",
    ]);
    await host.send("M105");
    assert.equal(await host.next(300), null, "no answer");
    sim.controls.reset();
    await host.until("start");
    await host.handshake();
    sim.controls.halt("bang");
    assert.equal(await host.next(), "!!");
    sim.controls.reset();
    await host.until("start");
    await host.handshake();
    await host.send("M112");
    assert.equal(await host.next(), "Error:Printer halted. kill() called!");
    await host.close();
  });
});

Deno.test("a 200-line print runs to the end with a resend in the middle", async () => {
  await withSim({}, async (sim) => {
    const host = await Host.open(sim.path);
    await host.until("start");
    await host.handshake();
    const file = Array.from(
      { length: 200 },
      (_, i) => `G1 X${i % 50} Y${i % 37} E${(i * 0.05).toFixed(2)}`,
    );
    let resends = 0;
    for (const [i, line] of file.entries()) {
      if (i === 100) sim.controls.failNext(1);
      const answer = await host.command(line);
      resends += answer.filter((l) => l.startsWith("Resend:")).length;
    }
    assert.equal(resends, 1);
    assert.deepEqual(
      sim.controls.firmware.commands,
      ["M110 N0", ...file],
      "every line once, in order",
    );
    assert.equal(sim.controls.firmware.lastLine, 200);
    await host.close();
  });
});
