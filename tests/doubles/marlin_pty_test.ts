import assert from "node:assert/strict";
import { waitFor } from "../_helpers.ts";
import { openPty, type PtyPort } from "./marlin_pty.ts";

interface Opened {
  port: PtyPort;
  link: string;
  dir: string;
  received: string[];
  opens: boolean[];
  bauds: number[];
}

async function open(baudRate = 250000): Promise<Opened> {
  const dir = await Deno.makeTempDir({ prefix: "marlin_pty_test-" });
  const link = `${dir}/ttyACM0`;
  const received: string[] = [];
  const opens: boolean[] = [];
  const bauds: number[] = [];
  const port = await openPty({
    link,
    baudRate,
    maxSeconds: 60,
    onData: (bytes) => received.push(new TextDecoder().decode(bytes)),
    onOpen: (open) => opens.push(open),
    onBaud: (baud) => bauds.push(baud),
  });
  return { port, link, dir, received, opens, bauds };
}

/** A host's two handles on the tty: a pending read blocks a write on one Deno FsFile. */
async function host(path: string) {
  const input = await Deno.open(path, { read: true });
  const output = await Deno.open(path, { write: true });
  const reader = input.readable.getReader();
  let text = "";
  return {
    write: (s: string) => output.write(new TextEncoder().encode(s)),
    async readUntil(part: string): Promise<string> {
      while (!text.includes(part)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`ended before '${part}'`);
        text += new TextDecoder().decode(value);
      }
      return text;
    },
    read: () => reader.read(),
    async close() {
      output.close();
      await reader.cancel();
    },
  };
}

async function stty(...args: string[]): Promise<string> {
  const { stdout } = await new Deno.Command("stty", { args, stdout: "piped" }).output();
  return new TextDecoder().decode(stdout);
}

Deno.test("the pty is a raw tty linked at the path, starting at the board's speed", async () => {
  const t = await open(250000);
  assert.match(await Deno.readLink(t.link), /^\/dev\/pts\/\d+$/);
  assert.equal(await Deno.readLink(t.link), t.port.ptsPath);
  const settings = await stty("-F", t.link, "-a");
  for (const flag of ["-icanon", "-echo", "-icrnl", "-opost"]) {
    assert.ok(settings.includes(flag), flag);
  }
  await waitFor(() => t.bauds.length > 0, "the first speed");
  assert.deepEqual(t.bauds, [250000]);
  await t.port.close();
  await Deno.remove(t.dir, { recursive: true });
});

Deno.test("bytes flow both ways and opening and closing the tty are reported", async () => {
  const t = await open();
  assert.deepEqual(t.opens, []);
  const h = await host(t.link);
  await waitFor(() => t.opens.length === 1, "the open");
  await h.write("M105\n");
  await waitFor(() => t.received.join("").includes("M105\n"), "the host's line");
  t.port.write(new TextEncoder().encode("ok T:20.00 /0.00\n"));
  assert.equal(await h.readUntil("\n"), "ok T:20.00 /0.00\n");
  await h.close();
  await waitFor(() => t.opens.length === 2, "the close");
  assert.deepEqual(t.opens, [true, false]);
  await t.port.close();
  await Deno.remove(t.dir, { recursive: true });
});

Deno.test("what the board sends while no host holds the tty is lost, as on a USB serial port", async () => {
  const t = await open();
  t.port.write(new TextEncoder().encode("lost\n"));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const h = await host(t.link);
  await waitFor(() => t.opens.includes(true), "the open");
  t.port.write(new TextEncoder().encode("kept\n"));
  assert.equal(await h.readUntil("kept\n"), "kept\n");
  await h.close();
  await t.port.close();
  await Deno.remove(t.dir, { recursive: true });
});

Deno.test("a speed the host sets on the tty is reported, 250000 included", async () => {
  const t = await open(250000);
  const h = await host(t.link);
  await stty("-F", t.link, "115200");
  await waitFor(() => t.bauds.at(-1) === 115200, "115200");
  await stty("-F", t.link, "57600");
  await waitFor(() => t.bauds.at(-1) === 57600, "57600");
  assert.deepEqual(t.bauds, [250000, 115200, 57600]);
  await h.close();
  await t.port.close();
  await Deno.remove(t.dir, { recursive: true });
});

Deno.test("closing the pty fails the host's read and removes the path, as a USB unplug", async () => {
  const t = await open();
  const h = await host(t.link);
  await waitFor(() => t.opens.includes(true), "the open");
  const failed = assert.rejects(h.read(), (err: Error & { code?: string }) => err.code === "EIO");
  await t.port.close();
  await failed;
  await assert.rejects(Deno.open(t.link), Deno.errors.NotFound);
  await t.port.closed;
  await h.close().catch(() => {});
  await Deno.remove(t.dir, { recursive: true });
});
