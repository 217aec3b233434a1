import assert from "node:assert/strict";
import { BAUD_RATES, listSerialPorts } from "../../../../lib/printer/serial/mod.ts";
import { openPty } from "./_pty.ts";

/** A temporary root with fake device entries (`dev/ttyUSB0` ...) and links, as udev makes them. */
async function fakeRoot(files: string[], links: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir();
  await Deno.mkdir(`${root}/dev/serial/by-id`, { recursive: true });
  for (const file of files) await Deno.writeTextFile(`${root}${file}`, "");
  for (const [link, target] of Object.entries(links)) await Deno.symlink(target, `${root}${link}`);
  return root;
}

Deno.test("USB adapters and boards are listed once each, with their by-id names", async () => {
  const root = await fakeRoot(["/dev/ttyUSB0", "/dev/ttyUSB10", "/dev/ttyUSB2", "/dev/ttyACM0"], {
    "/dev/serial/by-id/usb-Prusa_Research_Original_Prusa_i3_MK3-if00": "../../ttyACM0",
    "/dev/serial/by-id/usb-FTDI_FT232R-if00-port0": "../../ttyUSB0",
    "/dev/serial/by-id/usb-1a86_USB2.0-Serial-if00-port0": "../../ttyUSB10",
    "/dev/serial/by-id/usb-gone-if00": "../../ttyUSB7", // a dangling link: not offered
  });
  try {
    assert.deepEqual(await listSerialPorts({ root }), [
      {
        path: "/dev/ttyACM0",
        device: "/dev/ttyACM0",
        aliases: ["/dev/serial/by-id/usb-Prusa_Research_Original_Prusa_i3_MK3-if00"],
      },
      {
        path: "/dev/ttyUSB0",
        device: "/dev/ttyUSB0",
        aliases: ["/dev/serial/by-id/usb-FTDI_FT232R-if00-port0"],
      },
      { path: "/dev/ttyUSB2", device: "/dev/ttyUSB2", aliases: [] },
      {
        path: "/dev/ttyUSB10",
        device: "/dev/ttyUSB10",
        aliases: ["/dev/serial/by-id/usb-1a86_USB2.0-Serial-if00-port0"],
      },
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("extra ports are offered when they exist, as named, and merge with a device they lead to", async () => {
  const root = await fakeRoot(["/dev/ttyUSB0", "/dev/ttyAMA0"], {
    "/dev/printer": "ttyUSB0",
    "/dev/serial/by-id/usb-FTDI-if00": "../../ttyUSB0",
  });
  try {
    const ports = await listSerialPorts({
      root,
      extra: ["/dev/ttyAMA0", "/dev/printer", "/dev/nothing"],
    });
    assert.deepEqual(ports, [
      { path: "/dev/ttyAMA0", device: "/dev/ttyAMA0", aliases: [] },
      {
        path: "/dev/ttyUSB0",
        device: "/dev/ttyUSB0",
        aliases: ["/dev/printer", "/dev/serial/by-id/usb-FTDI-if00"],
      },
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an empty or missing /dev lists nothing", async () => {
  const root = await Deno.makeTempDir();
  try {
    assert.deepEqual(await listSerialPorts({ root }), []);
    assert.deepEqual(await listSerialPorts({ root: `${root}/nowhere` }), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a pseudo-terminal named as an extra port is listed by its link", async () => {
  await using pty = await openPty();
  const ports = await listSerialPorts({ extra: [pty.path] });
  assert.deepEqual(ports.find((p) => p.device === pty.device), {
    path: pty.path,
    device: pty.device,
    aliases: [],
  });
});

Deno.test("the baud rates are OctoPrint's, fastest first", () => {
  assert.deepEqual(BAUD_RATES, [250000, 230400, 115200, 57600, 38400, 19200, 9600]);
});
