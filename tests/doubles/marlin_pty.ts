/**
 * The Marlin simulator's serial line: a real pseudo-terminal that a host opens like
 * `/dev/ttyACM0`, made and bridged by a small Python helper (`marlin_pty.py`, `pty` module).
 *
 * Why a helper and not `socat pty,link=A pty,link=B`: the helper's master end tells when a host
 * opens or closes the tty (POLLHUP), which a board needs to reset on open (DTR) and to drop output
 * nobody reads; it reads the speed the host set (TCGETS2, so 250000 too); the simulator talks to it
 * over pipes, so Deno never blocks on a tty; and socat would exit at the host's first close.
 * Python 3 is on every Debian; socat would be one more package.
 *
 * The link path stays the same across {@linkcode PtyPort.close} and a new {@linkcode openPty}: a
 * host that keeps the path sees the device vanish (reads fail with EIO, opening fails with
 * NotFound) and come back, as a USB serial device does.
 *
 * @module
 */

/** Options of {@linkcode openPty}. */
export interface PtyOptions {
  /** Where to put the symlink to the pty's slave (`/tmp/…/ttyACM0`). */
  link: string;
  /** The speed the tty starts with (what `stty` shows before a host changes it). */
  baudRate: number;
  /** The helper exits by itself after this many real seconds. */
  maxSeconds: number;
  /** Bytes the host wrote. */
  onData(bytes: Uint8Array): void;
  /** A host opened the tty (`true`) or the last one closed it (`false`). */
  onOpen(open: boolean): void;
  /** The tty's speed, at start and whenever a host changes it. */
  onBaud(baudRate: number): void;
}

/** An open pseudo-terminal. */
export interface PtyPort {
  /** The slave's own path (`/dev/pts/N`). */
  readonly ptsPath: string;
  /** Sends bytes to the host (dropped while no host holds the tty). */
  write(bytes: Uint8Array): void;
  /** Removes the tty: the link goes and a host's reads and writes fail. */
  close(): Promise<void>;
  /** Settles when the helper has exited (closed, timed out or failed). */
  readonly closed: Promise<void>;
}

const HELPER = new URL("./marlin_pty.py", import.meta.url).pathname;

/** Starts the helper and resolves once the link exists. */
export async function openPty(options: PtyOptions): Promise<PtyPort> {
  const child = new Deno.Command("python3", {
    args: [HELPER, options.link, String(options.baudRate), String(options.maxSeconds)],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const pumped = (async () => {
    for await (const chunk of child.stdout) options.onData(chunk);
  })();
  let ready: (path: string) => void = () => {};
  const path = new Promise<string>((resolve) => ready = resolve);
  const problems: string[] = [];
  const events = (async () => {
    for await (const line of lines(child.stderr)) {
      const [word, value = ""] = line.split(" ", 2);
      if (word === "path") ready(value);
      else if (word === "open" || word === "close") options.onOpen(word === "open");
      else if (word === "baud") options.onBaud(Number(value));
      else problems.push(line);
    }
  })();
  const closed = Promise.all([child.status, pumped, events]).then(() => {});
  const ptsPath = await Promise.race([path, closed.then(() => null)]);
  if (ptsPath === null) throw new Error(`marlin_pty.py failed: ${problems.join("\n")}`);
  let closing: Promise<void> | null = null;
  return {
    ptsPath,
    closed,
    write(bytes) {
      writer.write(bytes).catch(() => {});
    },
    close() {
      closing ??= (async () => {
        await writer.close().catch(() => {});
        const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
        await closed;
        clearTimeout(timer);
        const target = await Deno.readLink(options.link).catch(() => null);
        if (target === ptsPath) await Deno.remove(options.link).catch(() => {});
      })();
      return closing;
    },
  };
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of stream) {
    const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = parts.pop() ?? "";
    yield* parts;
  }
}
