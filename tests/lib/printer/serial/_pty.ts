/**
 * A real pseudo-terminal for the serial tests: `socat` makes one and links it as `<tmp>/tty`;
 * what the transport writes to it comes out of socat's standard output, what the test sends goes
 * in through socat's standard input. Killing socat is pulling the USB cable.
 *
 * @module
 */
import { systemProgram, waitFor } from "../../../_helpers.ts";

/** The far end of a pseudo-terminal: the printer's side of the line. */
export interface PtyPeer extends AsyncDisposable {
  /** The link to open (`<tmp>/tty`). */
  path: string;
  /** The pseudo-terminal it leads to (`/dev/pts/N`). */
  device: string;
  /** The temporary folder holding the link. */
  dir: string;
  /** Sends bytes to whoever opened `path`. */
  send(data: string | Uint8Array): Promise<void>;
  /** Waits until the bytes written to `path` so far include `text`; returns them all. */
  received(text: string): Promise<string>;
  /** Ends the pseudo-terminal (a USB cable pulled) and waits for socat to exit. */
  unplug(): Promise<void>;
}

/** Starts socat with a raw pseudo-terminal; dispose it with `await using`. */
export async function openPty(): Promise<PtyPeer> {
  const dir = await Deno.makeTempDir({ prefix: "localbench-pty-" });
  await Deno.chmod(dir, 0o755); // another user may reach the link; the device's mode decides
  const path = `${dir}/tty`;
  const child = new Deno.Command(systemProgram("socat"), {
    args: ["-d", "-d", `pty,raw,echo=0,link=${path}`, "STDIO"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "", log = "";
  const collect = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const collecting = Promise.all([
    collect(child.stdout, (text) => out += text),
    collect(child.stderr, (text) => log += text),
  ]);
  const writer = child.stdin.getWriter();
  let ended: Promise<void> | null = null;
  const unplug = () =>
    ended ??= (async () => {
      await writer.close().catch(() => {});
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await collecting;
    })();
  try {
    const device = await waitFor(() => /PTY is (\S+)/.exec(log)?.[1], "socat's pty", 5000);
    await waitFor(() => Deno.lstat(path).then(() => true, () => false), "the pty link", 5000);
    return {
      path,
      device,
      dir,
      send: (data) =>
        writer.write(typeof data === "string" ? new TextEncoder().encode(data) : data),
      received: (text) => waitFor(() => out.includes(text) && out, `'${text}' on the pty`, 5000),
      unplug,
      async [Symbol.asyncDispose]() {
        await unplug();
        await Deno.remove(dir, { recursive: true });
      },
    };
  } catch (err) {
    await unplug();
    await Deno.remove(dir, { recursive: true });
    throw err;
  }
}
