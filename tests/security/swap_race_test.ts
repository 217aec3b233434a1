/**
 * 13.1/13.5: a file swapped for a link to an outside file while it is being served is never
 * read through the link. A separate process swaps the name as fast as it can (atomic renames of
 * a regular file and of a symlink over it) while requests run; none may return the outside file.
 */
import assert from "node:assert/strict";
import { statusOf } from "../../lib/http/error_handler.ts";
import { Hono } from "hono";
import { serveAssets } from "../../lib/http/fw/static.ts";
import { openNamedFile, readNamedFile } from "../../lib/named_file.ts";
import { AppError } from "../../lib/error.ts";
import { startLogHost } from "../plugins/logmonitor/_host.ts";

const SWAPPER = `
const [dir, name, target, limitMs] = Deno.args;
const end = Date.now() + Number(limitMs);
let i = 0;
while (Date.now() < end) {
  const tmp = dir + "/.swap-" + (i++ % 2);
  try { Deno.removeSync(tmp); } catch { /* absent */ }
  if (i % 2) Deno.symlinkSync(target, tmp); else Deno.writeTextFileSync(tmp, "inside\\n");
  Deno.renameSync(tmp, dir + "/" + name);
}
`;

/** Runs `attack` while another process swaps `dir/name`; the swapper stops by itself. */
async function whileSwapping<T>(
  dir: string,
  name: string,
  target: string,
  attack: () => Promise<T>,
): Promise<T> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", SWAPPER, dir, name, target, "60000"],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    return await attack();
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
}

/** Tallies outcomes; fails when a body carried the secret. */
class Tally {
  served = 0;
  refused = 0;
  add(status: number, body: string, secret: string) {
    assert.ok(!body.includes(secret), "the outside file was served");
    assert.ok(status < 500, `status ${status}`);
    if (status === 200) this.served++;
    else this.refused++;
  }
  /** The race really happened: both outcomes were seen. */
  assertRaced(what: string) {
    assert.ok(this.served > 0 && this.refused > 0, `${what}: ${JSON.stringify(this)}`);
  }
}

async function outsideSecret(root: string): Promise<{ path: string; marker: string }> {
  const marker = `SECRET-${crypto.randomUUID()}`;
  const path = `${root}/outside-secret.txt`;
  await Deno.writeTextFile(path, marker);
  return { path, marker };
}

Deno.test("openNamedFile() never returns the outside file while the name is swapped for a link", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/served`);
    await Deno.writeTextFile(`${root}/served/race.log`, "inside\n");
    const secret = await outsideSecret(root);
    const tally = new Tally();
    await whileSwapping(`${root}/served`, "race.log", secret.path, async () => {
      for (let i = 0; i < 3000 && (i < 1000 || tally.served === 0 || tally.refused === 0); i++) {
        try {
          const f = await openNamedFile(`${root}/served`, "race.log");
          tally.add(200, new TextDecoder().decode(await readNamedFile(f)), secret.marker);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          tally.add(statusOf(err), err.message, secret.marker);
        }
      }
    });
    tally.assertRaced("openNamedFile");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a log download never streams the outside file while the log is swapped for a link", async () => {
  const h = await startLogHost({ "race.log": "inside\n" });
  try {
    const secret = await outsideSecret(h.dir);
    const tally = new Tally();
    await whileSwapping(h.logDir, "race.log", secret.path, async () => {
      for (let i = 0; i < 3000 && (i < 1000 || tally.served === 0 || tally.refused === 0); i++) {
        const res = await h.request("/plugin/logmonitor/download/race.log");
        tally.add(res.status, await res.text(), secret.marker);
      }
    });
    tally.assertRaced("download");
  } finally {
    await h.close();
  }
});

Deno.test("static files are never read through a link swapped in while they are served", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/static`);
    await Deno.writeTextFile(`${root}/static/app.css`, "inside\n");
    const secret = await outsideSecret(root);
    const app = new Hono().use("*", serveAssets({ root: `${root}/static` }));
    const tally = new Tally();
    await whileSwapping(`${root}/static`, "app.css", secret.path, async () => {
      for (let i = 0; i < 3000 && (i < 1000 || tally.served === 0 || tally.refused === 0); i++) {
        const res = await app.request("/app.css");
        tally.add(res.status, await res.text(), secret.marker);
      }
    });
    tally.assertRaced("static");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
